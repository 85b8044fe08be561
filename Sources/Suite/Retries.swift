import Compare

/// `--retries N`: a case that failed, crashed or timed out runs again, up to N more times, until
/// it passes. One that passes on a retry is `flaky`, never a pass; one that fails every time is
/// its first failure, with the retries' failures beside it. Nothing is left to chance here: the
/// attempts run one after the other on the worker that ran the first.
package enum Retries {
    /// The most `--retries` may ask for: each retry of a case that times out costs its time limit.
    package static let maximum = 10

    /// Runs `attempt` once, and again while it fails in a way a retry may change, at most
    /// `retries` more times; `stopped` ends the retries early (an interrupt, `--fail-fast`).
    package static func run(retries: Int, stopped: () -> Bool, attempt: () -> RunnerResult) -> RunnerResult {
        let first = attempt()
        guard retries > 0, first.isRetryable else { return first }
        var failures = [first]
        while failures.count <= retries, !stopped() {
            let again = attempt()
            if again.isSuccess { return flaky(again, after: failures) }
            // What an interrupted run did is not what the program does: the failures so far stand.
            guard again.status != .interrupted else { break }
            failures.append(again)
            guard again.isRetryable else { break }
        }
        var result = first
        result.failedAttempts = Array(failures.dropFirst())
        return result
    }

    /// The passing attempt, said to be flaky, its message naming the attempt and the first failure;
    /// it points where the first failure did.
    private static func flaky(_ pass: RunnerResult, after failures: [RunnerResult]) -> RunnerResult {
        var result = pass
        result.status = .flaky
        let first = failures[0]
        let passed = pass.status == .xfail ? "failed as expected" : "passed"
        result.message = "\(passed) only on attempt \(failures.count + 1); attempt 1: \(first.message)"
        result.failedAttempts = failures
        result.location = first.location ?? pass.location
        return result
    }
}
