/// Names and descriptions of the Linux signals a program can die from.
package enum Signal {
    private static let table: [(number: Int32, name: String, description: String)] = [
        (1, "SIGHUP", "hangup"), (2, "SIGINT", "interrupt"), (3, "SIGQUIT", "quit"),
        (4, "SIGILL", "illegal instruction"), (5, "SIGTRAP", "trace/breakpoint trap"),
        (6, "SIGABRT", "aborted"), (7, "SIGBUS", "bus error"),
        (8, "SIGFPE", "floating-point exception"), (9, "SIGKILL", "killed"),
        (10, "SIGUSR1", "user signal 1"), (11, "SIGSEGV", "segmentation fault"),
        (12, "SIGUSR2", "user signal 2"), (13, "SIGPIPE", "broken pipe"),
        (14, "SIGALRM", "alarm clock"), (15, "SIGTERM", "terminated"),
        (16, "SIGSTKFLT", "stack fault"), (17, "SIGCHLD", "child exited"),
        (18, "SIGCONT", "continued"), (19, "SIGSTOP", "stopped"), (20, "SIGTSTP", "stopped (tty)"),
        (21, "SIGTTIN", "stopped (tty input)"), (22, "SIGTTOU", "stopped (tty output)"),
        (23, "SIGURG", "urgent I/O condition"), (24, "SIGXCPU", "CPU time limit exceeded"),
        (25, "SIGXFSZ", "file size limit exceeded"), (26, "SIGVTALRM", "virtual timer expired"),
        (27, "SIGPROF", "profiling timer expired"), (28, "SIGWINCH", "window changed"),
        (29, "SIGIO", "I/O possible"), (30, "SIGPWR", "power failure"),
        (31, "SIGSYS", "bad system call"),
    ]

    /// `SIGSEGV` for 11; `SIG42` for numbers without a name.
    package static func name(of number: Int32) -> String {
        table.first { $0.number == number }?.name ?? "SIG\(number)"
    }

    /// `segmentation fault` for 11.
    package static func description(of number: Int32) -> String {
        table.first { $0.number == number }?.description ?? "signal \(number)"
    }

    /// Parses `SIGSEGV`, `SEGV` or `11`.
    package static func number(named text: String) -> Int32? {
        if let number = Int32(text), number > 0, number < 65 { return number }
        let upper = text.uppercased()
        let full = upper.hasPrefix("SIG") ? upper : "SIG" + upper
        return table.first { $0.name == full }?.number
    }
}
