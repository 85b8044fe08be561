/// A warning of asmrun's own that a program behaves differently on x86 hardware than under
/// emulation (qemu-user): a pass under qemu would be a failure natively, or the reverse. It is a
/// build warning like nasm's, `file:line: warning: message`, made on a cold build and kept with
/// the build's other warnings (replayed from the cache as they are), so it is told apart from
/// them by its wording: every message says it "passes under emulation and fails natively" (or
/// the reverse), and, unlike nasm's and the C compiler's, it ends without a `[-w…]` tag.
package struct EmulationWarning: Sendable, Equatable {
    /// The file as printed (control characters escaped).
    package var path: String
    package var line: Int
    /// The text after `warning: `.
    package var message: String

    /// The phrase every such message holds (`under emulation and fails natively`).
    static let phrase = "under emulation and "

    package init(path: String, line: Int, message: String) {
        self.path = path.displayEscaped
        self.line = line
        self.message = message
    }

    /// `path:line: warning: message`, the form editors and CI problem matchers read.
    package var rendered: String { "\(path):\(line): warning: \(message)" }

    /// The warning a line of build output is, or `nil` for any other line.
    package static func parse(_ text: Substring) -> EmulationWarning? {
        guard text.contains(phrase), !text.hasSuffix("]"), let marker = text.firstRange(of: ": warning: ") else { return nil }
        let location = text[..<marker.lowerBound]
        guard let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]), line > 0 else {
            return nil
        }
        var warning = EmulationWarning(path: "", line: line, message: String(text[marker.upperBound...]))
        warning.path = String(location[..<colon])
        return warning
    }

    /// The warnings among the lines of `output` (a build's warnings, or its remarks), in order.
    package static func all(in output: String) -> [EmulationWarning] {
        guard output.contains(phrase) else { return [] }
        return output.split(separator: "\n").compactMap(parse)
    }

    /// `output` without the lines that are such warnings (shown once elsewhere).
    package static func removing(from output: String) -> String {
        guard output.contains(phrase) else { return output }
        return output.split(separator: "\n", omittingEmptySubsequences: false).filter { parse($0) == nil }.joined(separator: "\n")
    }
}
