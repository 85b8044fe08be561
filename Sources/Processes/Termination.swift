package enum Termination: Sendable, Equatable, Hashable {
    /// The process called exit with this status.
    case exited(Int32)
    /// The process was killed by this signal.
    case signaled(Int32)
    /// asmrun ended the process because its time limit expired.
    case timedOut

    /// A short human form: `exit 3`, `signal SIGSEGV`, `timeout`.
    package var summary: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(Signal.name(of: signal))"
        case .timedOut: "timeout"
        }
    }

    /// Decodes a `waitpid` status word.
    package init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(signal)
        }
    }
}
