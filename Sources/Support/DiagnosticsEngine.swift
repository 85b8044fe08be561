import Synchronization

/// The one path for what asmrun says on standard error about a run: errors, warnings, notes,
/// remarks, the tools' own lines and the `-v` trace (swift-format's `DiagnosticsEngine` is the
/// model). Every diagnostic is escaped on its way out (see `DisplayText`), so a name that holds a
/// newline or an escape sequence cannot start a line of its own; and the engine counts what it
/// emitted, for the exit status.
package final class DiagnosticsEngine: Sendable {
    /// How bad a diagnostic is; errors and warnings are counted.
    enum Severity: Sendable, Equatable {
        /// asmrun could not do something it was asked to (an `AsmRunError`).
        case error
        /// Something that works here but may not elsewhere.
        case warning
        /// What asmrun did on its own: a file skipped, a runner dropped, a folder ignored.
        case note
        /// A line about the run that is neither (`updated hello.expect`, a crash report).
        case remark
    }

    /// One thing to say: one line, or, for a tool's output and a crash report, lines that are
    /// each escaped on their own.
    package struct Diagnostic: Sendable, Equatable {
        var severity: Severity
        var text: String
        /// The text holds lines another component made (nasm's output, a crash report): each is
        /// escaped and kept; otherwise the text is one line whatever it holds.
        var multiline: Bool

        init(_ severity: Severity, _ text: String, multiline: Bool = false) {
            self.severity = severity
            self.text = text
            self.multiline = multiline
        }

        /// What reaches the terminal, ending in a newline.
        var rendered: String {
            let body = multiline ? DisplayText.escapeLines(text) : DisplayText.escape(text)
            return body.hasSuffix("\n") ? body : body + "\n"
        }
    }

    private let console: Console
    private let counts = Mutex<(errors: Int, warnings: Int)>((0, 0))

    package init(console: Console) {
        self.console = console
    }

    /// Writes `diagnostic` to standard error and counts it.
    package func emit(_ diagnostic: Diagnostic) {
        counts.withLock { counts in
            if diagnostic.severity == .error { counts.errors += 1 }
            if diagnostic.severity == .warning { counts.warnings += 1 }
        }
        console.write(diagnostic.rendered, to: .error)
    }

    /// An error: a tool's own lines, then `asmrun: LOCATION: PROBLEM; FIX`.
    package func error(_ error: any Error) {
        emit(Diagnostic(.error, Self.text(for: error), multiline: true))
    }

    /// A warning, printed as given (the tools' lines and asmrun's checks say `warning:` themselves).
    package func warning(_ text: String, multiline: Bool = false) {
        emit(Diagnostic(.warning, text, multiline: multiline))
    }

    /// `note: TEXT`, or `asmrun: note: TEXT` where the program's own output shares the terminal.
    package func note(_ text: String, tagged: Bool = false) {
        emit(Diagnostic(.note, (tagged ? "asmrun: note: " : "note: ") + text))
    }

    /// A line printed as given.
    package func remark(_ text: String, multiline: Bool = false) {
        emit(Diagnostic(.remark, text, multiline: multiline))
    }

    /// `-v`: `+ COMMAND` for each tool asmrun starts.
    package func trace(_ line: String) {
        emit(Diagnostic(.remark, "+ " + line))
    }

    /// How many errors were emitted so far.
    var errorCount: Int { counts.withLock { $0.errors } }

    var hasErrors: Bool { errorCount > 0 }

    var hasWarnings: Bool { counts.withLock { $0.warnings } > 0 }

    /// The lines for `error`: an `AsmRunError` as it renders itself; anything else as an
    /// internal error, which is a bug to report.
    package static func text(for error: any Error) -> String {
        if let error = error as? any AsmRunError { return error.rendered }
        return "asmrun: internal error: \(DisplayText.escape("\(error)")); please report it with the command that caused it"
    }
}
