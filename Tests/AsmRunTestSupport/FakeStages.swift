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
    /// Programs (by path) whose build fails.
    private let failingBuilds: Set<String>
    private let counts = Mutex<(builds: Int, runs: Int)>((0, 0))

    package init(answers: [String: CaseStatus] = [:], failingBuilds: Set<String> = []) {
        self.answers = answers
        self.failingBuilds = failingBuilds
    }

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
        let status = answers[test.id(of: testCase.name)] ?? .pass
        return RunnerResult(runner: runner.name, status: status, message: status == .pass ? "" : "fake \(status)")
    }
}
