import Processes
import Run
import Support

/// The verdict on one case under one runner.
package enum CaseStatus: String, Sendable, Codable, CaseIterable {
    /// Matched its expectations.
    case pass
    /// Did not match (a diff says how), or an expected failure passed.
    case fail
    /// Could not be run: build failure, missing tool, bad input file.
    case error
    /// Ran past its time limit.
    case timeout
    /// Not run on this runner, with a reason.
    case skip
    /// Failed as the program's `xfail` directive expects.
    case xfail
    /// Ended by an interrupt (Ctrl-C, SIGTERM) before it finished: neither passed nor failed,
    /// and never recorded.
    case interrupted
    /// `--retries`: failed, then passed on a retry. Never a pass: the run exits non-zero for it
    /// unless `--allow-flaky` is given.
    case flaky
}

/// One case under one runner.
package struct RunnerResult: Sendable {
    /// The runner name (`native`, `qemu`, or the command).
    package var runner: String
    package var status: CaseStatus
    /// One line: what went wrong, or the skip reason.
    package var message: String = ""
    /// Diffs per stream (`stdout`, `stderr`, `status`) in that order.
    package var diffs: [(stream: String, text: String)] = []
    /// Other multi-line detail (a build error's nasm lines).
    package var detail: String = ""
    /// What the build printed on success (nasm's and the linker's warnings) and asmrun's notes
    /// about it: shown with a failure and in the reports.
    package var buildRemarks: String = ""
    /// What the program did, when it ran.
    package var observation: Observation?
    /// Seconds the program ran.
    package var duration: Double = 0
    /// A stream passed the output limit: the observation is only a prefix, never recorded.
    package var outputLimitExceeded = false
    /// The time limit it ran past, when it timed out.
    package var timeLimit: Double?
    /// `--update`: what the program did differs from the file, so recording it changes the file.
    package var recordsChange = false
    /// The file and line a CI annotation should point at.
    package var location: FileLocation?
    /// Where and why the program crashed, when it died by a signal and was repeated under the
    /// debugger.
    package var crash: CrashReport?
    /// Why a crashed case has no report.
    package var crashNote: String?
    /// What the ABI checks found when the failed case ran again under the debugger (`AbiCheck`).
    package var abiFindings: [String] = []
    /// `--update`: the lines recorded as a hole and nothing else (`stdout line 2`), which any
    /// line passes: the run's summary names them.
    package var wholeLineHoles: [String] = []
    /// `--retries`: the other runs of the case under this runner, each a failure, in the order
    /// they ran: for `flaky`, the failures before the pass; for a failure, the retries that
    /// failed too (this result is then the first run's).
    package var failedAttempts: [RunnerResult] = []

    package init(runner: String, status: CaseStatus, message: String = "") {
        self.runner = runner
        self.status = status
        self.message = message
    }

    /// Counts as passed in the summary (pass, or an expected failure); `flaky` does not.
    package var isSuccess: Bool { status == .pass || status == .xfail }

    /// How many times the case ran under this runner (more than 1 only with `--retries`).
    package var attempts: Int { failedAttempts.count + 1 }

    /// A failure a retry may turn into a pass: it failed, crashed or timed out. A build failure,
    /// a missing tool or a bad file (`error`) would only fail again.
    package var isRetryable: Bool { status == .fail || status == .timeout }

    /// The full failure text: the message, each diff, the detail.
    package var failureText: String {
        var parts = [message]
        for diff in diffs { parts.append("\(diff.stream):\n\(diff.text)") }
        if !detail.isEmpty { parts.append(detail) }
        if let crash { parts.append(crash.rendered()) } else if let crashNote { parts.append(crashNote) }
        parts += abiFindings
        if !buildRemarks.isEmpty { parts.append(buildRemarks) }
        return parts.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
