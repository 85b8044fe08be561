import Glibc

/// Lets the terminal's Ctrl-C reach the program while asmrun waits for it, as system(3) does.
package enum TerminalSignals {
    package static func ignoringInterrupts<T>(_ body: () throws -> T) rethrows -> T {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        return try body()
    }
}
