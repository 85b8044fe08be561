import Glibc

/// A terminal's settings (echo, canonical input) as they were, to put back after a program that
/// changed them was killed.
package struct TerminalMode: Sendable {
    private let descriptor: Int32
    private let mode: termios

    /// `nil` when `descriptor` is no terminal.
    package init?(descriptor: Int32) {
        var mode = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &mode) == 0 else { return nil }
        self.descriptor = descriptor
        self.mode = mode
    }

    package func restore() {
        var mode = mode
        _ = tcsetattr(descriptor, TCSANOW, &mode)
    }
}
