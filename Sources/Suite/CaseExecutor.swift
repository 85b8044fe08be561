import Compare
import Run
import Source
import Support

/// One case of a built program under one runner: its inputs go to the Run stage as plain values,
/// what the program did goes to the Compare stage for the verdict.
struct CaseExecutor: Sendable {
    let runner: CaseRunner
    let judge: Judge
    let configuration: SuiteConfiguration

    func run(_ testCase: TestCase, of program: TestProgram, source: SourceFile, executable: String, runner: Runner) -> RunnerResult {
        let runner = runner.withCPU(source.settings.qemuCPU)
        let limits = CaseLimits(
            timeout: source.settings.timeout ?? configuration.timeout,
            outputLimit: source.settings.outputLimit ?? configuration.outputLimit, resources: source.settings.limits)
        let input = CaseInput(arguments: testCase.arguments, environment: testCase.environment, stdin: testCase.stdin.bytes)
        let run: CaseRun
        do {
            run = try self.runner.run(input, executable: executable, stem: source.stem, runner: runner, limits: limits)
        } catch {
            return RunnerResult(runner: runner.name, status: .error, message: "\(error)")
        }
        let result = run.result
        let observation = Observation(stdout: TextLines(result.stdout), stderr: TextLines(result.stderr), status: result.termination)
        var verdict = judge.verdict(
            observation, against: testCase, runner: runner.name, timeout: limits.timeout,
            outputLimitExceeded: result.outputLimitExceeded ? limits.outputLimit : nil,
            expectedFailure: source.settings.expectedFailure(for: runner.name))
        if run.leftovers > 0 {
            verdict.detail = "asmrun ended \(run.leftovers) process\(run.leftovers == 1 ? "" : "es") the program left running"
            if verdict.message.isEmpty { verdict.message = verdict.detail }
        }
        verdict.observation = observation
        verdict.duration = result.duration
        verdict.location = FileLocation(program.path, line: 1)
        return verdict
    }
}
