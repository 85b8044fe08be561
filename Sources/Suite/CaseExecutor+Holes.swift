import Build
import Compare
import Run
import Source

extension CaseExecutor {
    /// `--update` of a new or changed case: it runs a second time, and a third when the two
    /// differ; the parts of stdout and stderr that differ between runs are recorded as holes
    /// (`HoleInference`), said in the case's line (`recorded, 1 line with a hole: it differs
    /// between runs`), and a hole that is a whole line is kept for the run's summary.
    static func findHoles(_ verdict: inout RunnerResult, again: () -> Observation?) {
        guard verdict.recordsChange, verdict.status == .pass, let first = verdict.observation else { return }
        guard let second = again() else { return }
        guard second.stdout != first.stdout || second.stderr != first.stderr else { return }
        let runs = [first, second] + (again().map { [$0] } ?? [])
        let stdout = HoleInference.merge(runs.map(\.stdout))
        let stderr = HoleInference.merge(runs.map(\.stderr))
        let count = stdout.holeLines + stderr.holeLines
        guard count > 0 else { return }
        verdict.observation = Observation(stdout: stdout.text, stderr: stderr.text, status: first.status, files: first.files)
        verdict.message += ", \(count) line\(count == 1 ? "" : "s") with a hole: \(count == 1 ? "it differs" : "they differ") between runs"
        verdict.wholeLineHoles =
            stdout.wholeLines.map { "stdout line \($0)" } + stderr.wholeLines.map { "stderr line \($0)" }
    }

    /// The case run once more, as it ran (`nil` when it could not run, was interrupted or passed
    /// the output limit: no hole is found then).
    func again(_ input: CaseInput, program: Program, artifact: Artifact, runner: Runner, limits: CaseLimits) -> Observation? {
        guard
            let run = try? self.runner.run(
                input, executable: artifact.executable, length: artifact.length, stem: program.name, argv0: program.argv0,
                runner: runner, limits: limits), !run.result.interrupted, !run.result.outputLimitExceeded
        else { return nil }
        return Observation(stdout: TextLines(run.result.stdout), stderr: TextLines(run.result.stderr), status: run.result.termination)
    }
}
