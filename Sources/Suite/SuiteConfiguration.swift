import Support

/// How a suite runs, as plain values (the CLI's options become these before they go down).
package struct SuiteConfiguration: Sendable {
    package var jobs: Int
    /// `--update`: record what programs do as their expectations.
    package var recording = false
    /// Start no new case after the first failure.
    package var failFast = false
    /// Seconds per case, and the most a program or case may ask for (it may ask for less).
    package var timeout: Double = 10
    /// Bytes kept per output stream, and the most a program or case may ask for.
    package var outputLimit = 1 << 20
    /// `--limit NAME=VALUE`: the most a program or case may ask for (the defaults otherwise).
    package var ceilings = ResourceLimits()
    /// Pass each tool command line to the `note` callback (`-v`).
    package var traceCommands = false
    /// Repeat a crashed case under the debugger for a crash report even when the crash was
    /// expected (`-v`); failing crashes always get one.
    package var explainsExpectedCrashes = false
    /// The ABI checks (`--no-checks` turns them off): asmrun's syscall warnings shown, and a
    /// failed case run again under the debugger to check the calling convention.
    package var checks = true
    /// `--checks always`: every case is run again for the ABI checks, and a finding fails it.
    package var checksAlways = false
    /// `--retries`: how many more times a failed, crashed or timed-out case runs (`Retries`).
    package var retries = 0

    package init(jobs: Int) { self.jobs = jobs }
}

/// What a finished (or interrupted) suite produced.
package struct SuiteOutcome: Sendable {
    /// Every case that completed (or that some runners finished before the run stopped), in
    /// report order.
    package var reports: [CaseReport]
    /// The last of `reports`, never handed to `emit`: cases that finished after a gap left by
    /// cases that did not run (`--fail-fast`, an interrupt); the console prints them at the end.
    package var unshown: [CaseReport] = []
    /// False when the run was interrupted or stopped by `--fail-fast` before every case ran.
    package var complete: Bool
    /// Expectation files written by `--update`.
    package var updatedFiles: [String]

    /// `--update`: one line per case recorded with a hole that is a whole line (any line passes
    /// there), for the summary.
    package var holeWarnings: [String] {
        reports.flatMap { report in
            report.results.filter { !$0.wholeLineHoles.isEmpty && $0.message.hasPrefix("recorded") }.map { result in
                "warning: \(report.id) [\(result.runner)]: recorded \(result.wholeLineHoles.joined(separator: ", ")) as a hole "
                    + "and nothing else, which any line passes; check that is meant"
            }
        }
    }
}

extension SuiteOutcome {
    /// An outcome read back from reports (`asmrun report merge`).
    package init(reports: [CaseReport], complete: Bool) {
        self.init(reports: reports, complete: complete, updatedFiles: [])
    }
}
