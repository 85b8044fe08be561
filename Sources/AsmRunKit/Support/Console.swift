import Glibc
import Synchronization

/// The one serialized path for everything asmrun prints; tests use a buffering console.
public final class Console: Sendable {
    /// Which of asmrun's streams.
    public enum Stream: Sendable { case output, error }

    private enum Target { case descriptors, buffer }

    private let target: Target
    private let captured = Mutex<(output: String, error: String)>(("", ""))
    /// Standard error is a terminal (progress lines are drawn there).
    public let errorIsTerminal: Bool
    /// Colour is used: a terminal, and `NO_COLOR` unset.
    public let colorEnabled: Bool

    /// A console on file descriptors 1 and 2.
    public init(environment: [String: String]) {
        target = .descriptors
        errorIsTerminal = isatty(2) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colorEnabled = isatty(1) == 1 && !noColor && environment["TERM"] != "dumb"
    }

    /// A console that keeps what is written, for tests.
    public init(bufferingWithColor color: Bool = false) {
        target = .buffer
        errorIsTerminal = false
        colorEnabled = color
    }

    /// Writes text as it is.
    public func write(_ text: String, to stream: Stream = .output) {
        switch target {
        case .descriptors:
            captured.withLock { _ in writeAll(Array(text.utf8), to: stream == .output ? 1 : 2) }
        case .buffer:
            captured.withLock { state in
                if stream == .output { state.output += text } else { state.error += text }
            }
        }
    }

    /// Writes a line to standard error prefixed with `asmrun: `.
    public func error(_ message: String) {
        write("asmrun: \(message)\n", to: .error)
    }

    /// What a buffering console holds.
    public var capturedOutput: String { captured.withLock { $0.output } }

    /// What a buffering console holds for standard error.
    public var capturedError: String { captured.withLock { $0.error } }

    /// Wraps `text` in an ANSI colour when colour is on.
    public func paint(_ text: String, _ color: Color) -> String {
        colorEnabled ? "\u{1b}[\(color.rawValue)m\(text)\u{1b}[0m" : text
    }

    /// ANSI colour codes used by the reporter.
    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", cyan = "36", bold = "1", dim = "2"
    }
}
