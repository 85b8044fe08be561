import Build
import Compare
import Run
import Source

/// What a suite run calls out to: building a program and running one case of it under one
/// runner. `SuiteRunner` schedules, orders and records around them; the real stages build with
/// the cache and run under the case runner, and unit tests give fakes that start no process.
package protocol SuiteStages: Sendable {
    /// Where the run keeps the timings that order the next run's builds (`nil`: nowhere).
    var timingsFolder: String? { get }
    /// Builds `program` (or replays it from the cache).
    func build(_ program: Program, trace: (@Sendable (String) -> Void)?) throws -> Artifact
    /// Runs `testCase` of the built program under `runner` and judges the result.
    func run(_ testCase: TestCase, of test: TestProgram, program: Program, artifact: Artifact, runner: Runner) -> RunnerResult
}

/// The stages of a real run: the cache's builds, the case runner's runs, the judge's verdicts.
struct BuildAndRunStages: SuiteStages {
    private let toolchain: Toolchain
    private let store: ArtifactStore
    private let executor: CaseExecutor

    init(toolchain: Toolchain, store: ArtifactStore, caseRunner: CaseRunner, configuration: SuiteConfiguration) {
        self.toolchain = toolchain
        self.store = store
        executor = CaseExecutor(
            runner: caseRunner, judge: Judge(recording: configuration.recording), configuration: configuration,
            debugBuild: { program, artifact in store.debugBuild(of: program, matching: artifact, toolchain: toolchain) })
    }

    var timingsFolder: String? { store.root }

    func build(_ program: Program, trace: (@Sendable (String) -> Void)?) throws -> Artifact {
        try store.build(program, toolchain: toolchain, trace: trace)
    }

    func run(_ testCase: TestCase, of test: TestProgram, program: Program, artifact: Artifact, runner: Runner) -> RunnerResult {
        executor.run(testCase, of: test, program: program, artifact: artifact, runner: runner)
    }
}
