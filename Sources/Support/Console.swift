import Glibc
import Synchronization

/// The one serialized path for everything asmrun prints; tests use a buffering console.
package final class Console: Sendable {
    /// Which of asmrun's streams.
    package enum Stream: Sendable { case output, error }

    private enum Target { case descriptors, buffer }

    private let target: Target
    private let captured = Mutex<(output: String, error: String)>(("", ""))
    /// Standard error is a terminal (progress lines are drawn there).
    package let errorIsTerminal: Bool
    /// Colour is used: a terminal, and `NO_COLOR` unset.
    package let colorEnabled: Bool

    /// A console on file descriptors 1 and 2.
    package init(environment: [String: String]) {
        target = .descriptors
        errorIsTerminal = isatty(2) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colorEnabled = isatty(1) == 1 && !noColor && environment["TERM"] != "dumb"
    }

    /// A console that keeps what is written, for tests.
    package init(bufferingWithColor color: Bool = false) {
        target = .buffer
        errorIsTerminal = false
        colorEnabled = color
    }

    package func write(_ text: String, to stream: Stream = .output) {
        switch target {
        case .descriptors:
            captured.withLock { _ in _ = writeAll(Array(text.utf8), to: stream == .output ? 1 : 2) }
        case .buffer:
            captured.withLock { state in
                if stream == .output { state.output += text } else { state.error += text }
            }
        }
    }

    /// Writes a line to standard error prefixed with `asmrun: `.
    package func error(_ message: String) {
        write("asmrun: \(message)\n", to: .error)
    }

    /// What a buffering console holds.
    var capturedOutput: String { captured.withLock { $0.output } }

    /// What a buffering console holds for standard error.
    var capturedError: String { captured.withLock { $0.error } }

    /// Wraps `text` in an ANSI colour when colour is on.
    package func paint(_ text: String, _ color: Color) -> String {
        colorEnabled ? "\u{1b}[\(color.rawValue)m\(text)\u{1b}[0m" : text
    }

    /// ANSI colour codes used by the reporter.
    package enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", cyan = "36", bold = "1", dim = "2"
    }
}
