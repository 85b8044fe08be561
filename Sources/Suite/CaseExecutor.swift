import Build
import Compare
import Processes
import Run
import Sandbox
import Source
import Support

/// One case of a built program under one runner: its inputs go to the Run stage as plain values,
/// what the program did goes to the Compare stage for the verdict.
struct CaseExecutor: Sendable {
    let runner: CaseRunner
    let judge: Judge
    let configuration: SuiteConfiguration
    /// The line tables of a classic build: the same sources built with `-g` (released after use).
    let debugBuild: @Sendable (Program, Artifact) -> Artifact?

    func run(_ testCase: TestCase, of test: TestProgram, program: Program, artifact: Artifact, runner: Runner) -> RunnerResult {
        let runner = runner.withCPU(program.settings.qemuCPU)
        // The case's own limits first, then its program's, then the command line's, which are
        // also the ceilings: a case or a program may lower a limit, never raise it.
        let own = testCase.applyingLimits(
            to: program.settings.limits, outputLimit: program.settings.outputLimit ?? configuration.outputLimit)
        let timeout = testCase.timeout ?? program.settings.timeout ?? configuration.timeout
        let limits = CaseLimits(
            timeout: min(timeout, configuration.timeout), outputLimit: min(own.outputLimit, configuration.outputLimit),
            resources: own.resources, ceilings: configuration.ceilings)
        if let tooLarge = testCase.argumentSpaceProblem {
            let location = FileLocation(test.expectationPath, line: tooLarge.line)
            var result = RunnerResult(
                runner: runner.name, status: .error,
                message: "\(location): case `\(testCase.name)`: \(tooLarge.problem); give large input with `stdin:` instead")
            result.location = location
            return result
        }
        var input = CaseInput(arguments: testCase.arguments, environment: testCase.environment, stdin: testCase.stdin.bytes)
        input.fileFolder = test.fileFolder
        input.files = testCase.inputs.map { ($0.name, $0.content.bytes) }
        input.collectsFiles = testCase.listsFiles || configuration.recording
        let run: CaseRun
        do {
            run = try self.runner.run(
                input, executable: artifact.executable, length: artifact.length, stem: program.name, argv0: program.argv0,
                runner: runner, limits: limits)
        } catch {
            return RunnerResult(runner: runner.name, status: .error, message: "\(error)")
        }
        let result = run.result
        let observation = Observation(
            stdout: TextLines(result.stdout), stderr: TextLines(result.stderr), status: result.termination,
            files: run.files?.mapValues(TextLines.init))
        var verdict = judge.verdict(
            observation, against: testCase, runner: runner.name, timeout: limits.timeout,
            outputLimitExceeded: result.outputLimitExceeded ? limits.outputLimit : nil, oversizedFiles: run.oversizedFiles,
            limit: limits.outputLimit, expectedFailure: program.settings.expectedFailure(for: runner.name),
            interrupted: result.interrupted)
        if let bytes = run.filledFolder { Self.failForFilledFolder(bytes, &verdict) }
        // What an interrupted program did is not what it does: it is neither shown nor recorded.
        if verdict.status != .interrupted { verdict.observation = observation }
        if configuration.recording, run.filledFolder == nil {
            Self.findHoles(&verdict) { again(input, program: program, artifact: artifact, runner: runner, limits: limits) }
        }
        if run.leftovers > 0 { Self.noteLeftovers(run.leftovers, &verdict) }
        verdict.duration = result.duration
        verdict.buildRemarks = configuration.checks ? artifact.remarks : EmulationWarning.removing(from: artifact.remarks)
        let stream = verdict.status == .timeout ? "status" : verdict.diffs.first?.stream
        verdict.location = test.location(of: testCase, stream: stream, runner: runner.name)
        let crashed: Int32? =
            if case .signaled(let signal) = result.termination, CrashProbe.crashSignals.contains(signal),
                !verdict.isSuccess || configuration.explainsExpectedCrashes
            {
                signal
            } else { nil }
        explain(input, program: program, artifact: artifact, runner: runner, limits: limits, crashed: crashed, into: &verdict)
        return verdict
    }

    private static func noteLeftovers(_ count: Int, _ verdict: inout RunnerResult) {
        verdict.detail = "asmrun ended \(count) process\(count == 1 ? "" : "es") the program left running"
        if verdict.message.isEmpty { verdict.message = verdict.detail }
    }

    /// A case that filled its folder fails, whatever it printed: it may have stopped early.
    private static func failForFilledFolder(_ bytes: Int, _ verdict: inout RunnerResult) {
        guard verdict.status != .interrupted else { return }
        verdict.status = .fail
        verdict.recordsChange = false
        verdict.message =
            "scratch limit exceeded: the program filled its folder (\(bytes >> 20) MiB, or \(Containment.folderInodes) files and folders); "
            + "raise it with --scratch-limit"
    }

    /// The crash report of a case that `crashed` (by that signal), and the ABI checks of a failed
    /// case (of every case with `--checks always`, where a finding fails a passing case; a timeout
    /// or an error keeps its verdict): both run again under the debugger, with one debug build
    /// between them.
    private func explain(
        _ input: CaseInput, program: Program, artifact: Artifact, runner: Runner, limits: CaseLimits, crashed: Int32?,
        into verdict: inout RunnerResult
    ) {
        var crashProbe: CrashProbe?
        if crashed != nil, let probe = self.runner.crashProbe {
            switch probe {
            case .success(let probe): crashProbe = probe
            case .failure(let missing): verdict.crashNote = "no crash report: \(missing.message)"
            }
        }
        let failed = verdict.status == .fail || verdict.status == .error
        let checks = verdict.observation != nil && (failed || configuration.checksAlways)
        let abiProbe = checks ? self.runner.abiProbe(for: runner) : nil
        guard crashProbe != nil || abiProbe != nil else { return }
        let symbols = debugBuild(program, artifact)
        defer { symbols?.release() }
        let built = CrashProbe.Program(
            executable: artifact.executable, format: artifact.format, sources: program.filesAndIncludes, warnings: artifact.remarks,
            symbols: symbols?.executable)
        if let crashProbe {
            let report = try? self.runner.explainCrash(
                input, of: built, probe: crashProbe, stem: program.name, argv0: program.argv0, runner: runner, limits: limits,
                signal: crashed)
            if let report {
                verdict.crash = report
            } else {
                verdict.crashNote = "no crash report: the crash did not repeat under the debugger"
            }
        }
        guard let abiProbe else { return }
        verdict.abiFindings = self.runner.checkAbi(
            input, of: built, probe: abiProbe, stem: program.name, argv0: program.argv0, runner: runner, limits: limits)
        if verdict.status == .pass, !verdict.abiFindings.isEmpty {
            verdict.status = .fail
            verdict.recordsChange = false
            verdict.message = "the ABI checks (--checks always) found \(verdict.abiFindings.count == 1 ? "a problem" : "problems")"
        }
    }
}
