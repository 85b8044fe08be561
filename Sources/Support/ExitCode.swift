/// asmrun's own exit statuses. A program's status passes through unchanged in run mode; these
/// are the ones asmrun adds, in the style of timeout(1) and test runners.
package enum ExitCode {
    package static let success: Int32 = 0
    /// `asmrun test`: a case failed; `asmrun doctor`: not ready.
    package static let failure: Int32 = 1
    /// `asmrun test` and `asmrun cache`: a usage or configuration error.
    package static let usage: Int32 = 2
    /// `asmrun test --retries`: no case failed, but some passed only on a retry (and
    /// `--allow-flaky` was not given).
    package static let flaky: Int32 = 3
    /// The program ran past `--timeout`.
    package static let timedOut: Int32 = 124
    /// Run mode: asmrun itself failed (usage, missing tool, assembly or link error).
    package static let toolFailure: Int32 = 125
    /// Ended by Ctrl-C or SIGTERM.
    package static let interrupted: Int32 = 128 + 2

    /// The status a shell reports for a death by `signal`.
    package static func signaled(_ signal: Int32) -> Int32 { 128 + signal }
}
