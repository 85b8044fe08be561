/// A place in a file an error is about.
package struct FileLocation: Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int?

    package init(_ path: String, line: Int? = nil) {
        self.path = path
        self.line = line
    }

    /// `path` or `path:line`, the form editors and CI problem matchers read, with control
    /// characters in the path escaped (see `DisplayText`).
    package var description: String {
        let shown = path.displayEscaped
        return line.map { "\(shown):\($0)" } ?? shown
    }
}

/// Every error asmrun reports: what failed, where, and what to do next. The diagnostics engine
/// prints them all (`DiagnosticsEngine`) as `asmrun: LOCATION: PROBLEM; FIX`.
package protocol AsmRunError: Error, CustomStringConvertible {
    /// The file (and line) the error is about; `nil` when it is about no file.
    var location: FileLocation? { get }
    /// What failed, as a phrase that follows the location (`is empty`, `nasm not found`).
    var problem: String { get }
    /// What to do about it; `nil` only when the tool output says it all.
    var fix: String? { get }
    /// Lines a tool printed (nasm's `file:line: error:`), kept verbatim above the message.
    var toolOutput: String { get }
}

extension AsmRunError {
    package var location: FileLocation? { nil }
    package var toolOutput: String { "" }

    /// The one-line message: `LOCATION: PROBLEM; FIX`.
    package var message: String {
        let head = location.map { "\($0): \(problem)" } ?? problem
        return fix.map { "\(head); \($0)" } ?? head
    }

    package var description: String { message }

    /// What the user sees: the tool's lines, then `asmrun: MESSAGE` (left out when the tool's
    /// lines say it all and asmrun has no fix to add). Control characters are escaped, so the
    /// message is one line whatever names it holds (see `DisplayText`).
    package var rendered: String {
        var lines = toolOutput.split(separator: "\n", omittingEmptySubsequences: true).map { DisplayText.escape(String($0)) }
        if lines.isEmpty || fix != nil { lines.append("asmrun: " + DisplayText.escape(message)) }
        return lines.joined(separator: "\n")
    }
}

/// A problem with a file asmrun reads or writes, naming the file and the fix.
package struct FileError: AsmRunError, Equatable {
    package var location: FileLocation?
    package var problem: String
    package var fix: String?

    package init(path: String, line: Int? = nil, problem: String, fix: String) {
        location = FileLocation(path, line: line)
        self.problem = problem
        self.fix = fix
    }
}
