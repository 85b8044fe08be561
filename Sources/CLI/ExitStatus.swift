import Glibc
import Processes
import Support
import Synchronization

/// Every exit status asmrun returns is decided here, from how the command ended; `table` is the
/// one README.md, the man page and `--help` print (`ExitStatusTests` holds them to it).
enum ExitStatus {
    /// Which command ended: its failures exit differently.
    enum Command {
        /// `asmrun FILE.asm` and `asmrun debug`: the program's status is passed through, so any
        /// failure of asmrun's own exits 125, as `env` and `timeout` do.
        case run
        /// `asmrun test`, `asmrun cache`: usage and configuration errors exit 2.
        case test
    }

    static let success = ExitCode.success
    static let interrupted = ExitCode.interrupted
    /// No command given: the usage is printed to standard error.
    static let usage = ExitCode.usage

    /// asmrun itself failed in `command`: `error` is emitted and the status returned.
    static func failed(_ error: any Error, in command: Command, _ diagnostics: DiagnosticsEngine) -> Int32 {
        diagnostics.error(error)
        return command == .run ? ExitCode.toolFailure : ExitCode.usage
    }

    /// The program's own end, as a shell reports it.
    static func program(_ termination: Termination) -> Int32 {
        switch termination {
        case .exited(let code): code
        case .signaled(let signal): ExitCode.signaled(signal)
        case .timedOut: ExitCode.timedOut
        }
    }

    /// `asmrun test`: 130 when interrupted; 2 when a report could not be written (the error
    /// emitted); 1 on a failed case, an incomplete run or a path that gave no programs; 3 when
    /// cases passed only on a retry (`flaky`) unless `allowFlaky`; else 0.
    static func test(
        failed: Int, flaky: Int, allowFlaky: Bool, complete: Bool, pathProblems: Int, unwrittenReports: Int,
        interrupted: Bool
    ) -> Int32 {
        if interrupted { return ExitCode.interrupted }
        if unwrittenReports > 0 { return ExitCode.usage }
        if failed > 0 || !complete || pathProblems > 0 { return ExitCode.failure }
        return flaky > 0 && !allowFlaky ? ExitCode.flaky : ExitCode.success
    }

    /// `--watch` (`asmrun test --watch`, `asmrun --watch FILE.asm`) runs until Ctrl-C, and then
    /// exits 130 as any interrupted run does, whatever the last run's result: that is on the
    /// screen, and a watch has no result of its own.
    static let watch = ExitCode.interrupted

    /// A second Ctrl-C (or SIGTERM) while a run is still stopping (`Context.abandon`): exit 130 at
    /// once, the terminal's settings first put back as `terminal` holds them (a program a watch
    /// killed may have left it without echo or lines), as the run's own end would have.
    static func abandon() -> Never {
        terminal.withLock { $0 }?.restore()
        _exit(interrupted)
    }

    /// The terminal's settings before the programs of `asmrun --watch` ran, while it runs them.
    static let terminal = Mutex<TerminalMode?>(nil)

    /// `asmrun doctor`: 0 when ready, 1 when something is missing.
    static func doctor(ready: Bool) -> Int32 { ready ? ExitCode.success : ExitCode.failure }

    /// The README's table: each status (or `the program's`) and what it means.
    static let table: [(status: String, meaning: String)] = [
        ("the program's", "`asmrun FILE.asm`: the program's own status; 128+N when it was killed by signal N"),
        ("\(ExitCode.success) / \(ExitCode.failure)", "`asmrun test`: everything passed / some case failed"),
        ("\(ExitCode.usage)", "`asmrun test`: a usage or configuration error"),
        ("\(ExitCode.flaky)", "`asmrun test --retries`: no case failed, but some passed only on a retry (0 with `--allow-flaky`)"),
        ("\(ExitCode.timedOut)", "`asmrun FILE.asm --timeout`: the program ran out of time"),
        ("\(ExitCode.toolFailure)", "`asmrun FILE.asm`: asmrun itself failed (usage, a missing tool, an assembly or link error)"),
        ("\(ExitCode.interrupted)", "interrupted (Ctrl-C)"),
    ]
}
