import Build
import Compare
import Run
import Source
import Suite
import Synchronization

/// Suite stages that start no process: each build and each run answers from a table, and every
/// call is counted, so a unit test drives `SuiteRunner` through any order of events.
package final class FakeStages: SuiteStages {
    /// What a run of a case answers, by `PROGRAM:CASE` (a pass when absent).
    private let answers: [String: CaseStatus]
    /// What the runs of a case answer one after the other, by `PROGRAM:CASE` (the last answer
    /// repeats), counted per runner: a case that fails once, then passes, is flaky the same way
    /// every time.
    private let sequences: [String: [CaseStatus]]
    /// Programs (by path) whose build fails.
    private let failingBuilds: Set<String>
    private let counts = Mutex<(builds: Int, runs: Int)>((0, 0))
    /// Runs so far, by `PROGRAM:CASE [RUNNER]`.
    private let runsByCase = Mutex<[String: Int]>([:])

    package init(answers: [String: CaseStatus] = [:], sequences: [String: [CaseStatus]] = [:], failingBuilds: Set<String> = []) {
        self.answers = answers
        self.sequences = sequences
        self.failingBuilds = failingBuilds
    }

    /// How many times the case ran under `runner`.
    package func runs(of id: String, runner: String) -> Int { runsByCase.withLock { $0["\(id) [\(runner)]"] ?? 0 } }

    package var timingsFolder: String? { nil }

    package var builds: Int { counts.withLock { $0.builds } }
    package var runs: Int { counts.withLock { $0.runs } }

    package func build(_ program: Program, trace: (@Sendable (String) -> Void)?) throws -> Artifact {
        counts.withLock { $0.builds += 1 }
        if failingBuilds.contains(program.path) {
            throw BuildFailure(source: program.path, stage: .assemble, output: "\(program.path):1: error: fake", hint: nil)
        }
        return Artifact(executable: "/nonexistent/\(program.name)", format: .elf64, warnings: "", notes: [])
    }

    package func run(_ testCase: TestCase, of test: TestProgram, program: Program, artifact: Artifact, runner: Runner) -> RunnerResult {
        counts.withLock { $0.runs += 1 }
        let id = test.id(of: testCase.name)
        let run = runsByCase.withLock { runs in
            runs["\(id) [\(runner.name)]", default: 0] += 1
            return runs["\(id) [\(runner.name)]"]!
        }
        let status = sequences[id].map { $0[min(run, $0.count) - 1] } ?? answers[id] ?? .pass
        return RunnerResult(runner: runner.name, status: status, message: status == .pass ? "" : "fake \(status) on run \(run)")
    }
}
