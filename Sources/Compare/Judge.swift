/// Decides the verdict of one case under one runner: pass, fail, timeout or xfail are decided
/// here and nowhere else.
package struct Judge: Sendable {
    /// `--update`: differences are recorded, not failures, and xfail does not apply.
    package var recording: Bool

    package init(recording: Bool) { self.recording = recording }

    /// Compares what the program did with the case's expectation for `runner`. `timeout` is the
    /// limit the case ran under; `outputLimit` is set when a stream passed it (the observation
    /// is then only a prefix); `expectedFailure` is the program's xfail reason for the runner.
    package func verdict(
        _ observation: Observation, against testCase: TestCase, runner: String, timeout: Double,
        outputLimitExceeded outputLimit: Int? = nil, oversizedFiles: [String] = [], limit: Int = 0,
        expectedFailure: String? = nil, interrupted: Bool = false
    ) -> RunnerResult {
        if interrupted { return Self.interrupted(runner: runner, recording: recording) }
        var result = compare(observation, testCase, runner, timeout)
        if let outputLimit {
            result.outputLimitExceeded = true
            result.recordsChange = false
            result.status = .fail
            result.message =
                "output limit exceeded: more than \(outputLimit) bytes on stdout or stderr (raise it with --output-limit)"
        } else if !oversizedFiles.isEmpty {
            result.outputLimitExceeded = true
            result.status = .fail
            result.message =
                "\(oversizedFiles.joined(separator: ", ")) larger than the output limit of \(limit) bytes (raise it with --output-limit)"
        }
        if recording, let reason = expectedFailure, result.recordsChange {
            // `--update` never records what a program marked xfail does.
            result.recordsChange = false
            result.message = "not recorded: the program is expected to fail here (\(reason))"
        }
        guard let reason = expectedFailure, !recording else { return result }
        switch result.status {
        case .fail, .timeout:
            result.status = .xfail
            result.message = "expected failure: \(reason)"
        case .pass:
            result.status = .fail
            result.message = "passed, but is marked xfail (\(reason)); remove the directive"
        case .error, .skip, .xfail, .interrupted, .flaky: break
        }
        return result
    }

    private func compare(_ observation: Observation, _ testCase: TestCase, _ runner: String, _ timeout: Double) -> RunnerResult {
        var result = RunnerResult(runner: runner, status: .pass)
        let expected = testCase.effective(for: runner)
        if observation.status == .timedOut && !(expected.status?.accepts(.timedOut) ?? false) && !recording {
            return timedOut(observation, testCase, expected, runner, timeout)
        }
        guard testCase.isRecorded || recording else {
            result.status = .fail
            result.message = "no expectations recorded yet; run `asmrun test --update` to record them"
            return result
        }
        result.diffs = streamDiffs(observation, expected)
        for name in expected.files.keys.sorted() {
            let label = "file \(name)"
            guard let actual = observation.files?[name] else {
                result.diffs.append((label, "expected the program to write \(name); it did not\n"))
                continue
            }
            if !Pattern(expected.files[name]!).matches(actual) {
                result.diffs.append((label, UnifiedDiff.make(expected: expected.files[name]!, actual: actual)))
            }
        }
        if recording, let written = observation.files, written.keys.contains(where: { expected.files[$0] == nil }) {
            result.diffs.append(
                ("files", "new files to record: \(written.keys.filter { expected.files[$0] == nil }.sorted().joined(separator: ", "))\n"))
        }
        if let status = expected.status, !status.accepts(observation.status) {
            result.diffs.append(("status", "expected \(status), got \(observation.status.summary)\n"))
        } else if expected.status == nil && !testCase.isRecorded {
            result.diffs.append(("status", "new status to record: \(observation.status.summary)\n"))
        }
        if recording && (!result.diffs.isEmpty || !testCase.isRecorded) {
            result.message = "recorded"
            result.recordsChange = true
        } else if !result.diffs.isEmpty {
            result.status = .fail
            result.message = result.diffs.map(\.stream).joined(separator: ", ") + " differ" + (result.diffs.count == 1 ? "s" : "")
            result.diffs += Self.unchecked(observation, stdout: expected.stdout, stderr: expected.stderr)
        }
        return result
    }

    /// A case an interrupt ended (or kept from being built): what it did does not count, and
    /// with `--update` (`recording`) nothing of it is written.
    package static func interrupted(runner: String, recording: Bool) -> RunnerResult {
        let message = "interrupted (Ctrl-C or SIGTERM) before it finished" + (recording ? "; nothing recorded" : "")
        return RunnerResult(runner: runner, status: .interrupted, message: message)
    }

    /// A result `--update` meant to record but did not: an error when the recording failed
    /// (`failing`), else the same verdict saying why nothing was written. Results that had
    /// nothing to record are unchanged.
    package static func notRecorded(_ result: RunnerResult, because reason: String, failing: Bool) -> RunnerResult {
        guard result.recordsChange else { return result }
        var changed = result
        changed.recordsChange = false
        changed.message = "not recorded: " + reason
        if failing { changed.status = .error }
        return changed
    }

    /// Diffs of stdout and stderr against what the case expects of `runner`.
    private func streamDiffs(
        _ observation: Observation, _ expected: (stdout: TextLines, stderr: TextLines, status: ExpectedStatus?, files: [String: TextLines])
    ) -> [(stream: String, text: String)] {
        var diffs: [(stream: String, text: String)] = []
        if !Pattern(expected.stdout).matches(observation.stdout) {
            diffs.append(("stdout", UnifiedDiff.make(expected: expected.stdout, actual: observation.stdout)))
        }
        if !Pattern(expected.stderr).matches(observation.stderr) {
            diffs.append(("stderr", UnifiedDiff.make(expected: expected.stderr, actual: observation.stderr)))
        }
        return diffs
    }

    /// A case that ran out of time: how far its output got is shown as diffs against what it
    /// should have printed (partial credit is the grader's call).
    private func timedOut(
        _ observation: Observation, _ testCase: TestCase,
        _ expected: (stdout: TextLines, stderr: TextLines, status: ExpectedStatus?, files: [String: TextLines]),
        _ runner: String, _ timeout: Double
    ) -> RunnerResult {
        var result = RunnerResult(runner: runner, status: .timeout)
        result.timeLimit = timeout
        result.message =
            "timed out after \(String(format: "%g", timeout)) s; raise the limit with `--timeout`, or record `status: timeout`"
        guard testCase.isRecorded else { return result }
        result.diffs = streamDiffs(observation, expected)
        let printed = !observation.stdout.lines.isEmpty || !observation.stderr.lines.isEmpty
        if result.diffs.isEmpty && printed {
            result.message += " (its output until then was what the case expects)"
        } else if !result.diffs.isEmpty {
            result.message += " (below: its output until then against the expected)"
        }
        return result
    }
}
