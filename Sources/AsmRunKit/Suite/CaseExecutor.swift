import Foundation

/// Runs one case of a built program under one runner in a fresh temporary folder, with a fixed
/// environment and stdin, and judges the result against the case's expectations.
struct CaseExecutor: Sendable {
    let context: Context
    let options: TestOptions
    /// The folder under which each case gets its own working directory.
    let scratch: String
    /// Cgroups, namespaces and orphan handling for the cases.
    let containment: Containment?

    /// The defaults every case gets unless its program says otherwise (see README "Limits").
    /// Emulators need more address space than the program: qemu-i386 reserves the whole 4 GiB
    /// guest space up front and qemu's translation buffer takes more.
    static func defaultLimits(timeout: Double, processes: Int?, native: Bool) -> ResourceLimits {
        ResourceLimits(
            addressSpace: native ? 1 << 30 : 6 << 30, fileSize: 64 << 20, cpuSeconds: Int(timeout.rounded(.up)) + 5,
            processes: processes, openFiles: 256)
    }

    func run(_ testCase: TestCase, of program: TestProgram, source: SourceFile, executable: String, runner: Runner) -> RunnerResult {
        let runner = runner.withCPU(source.settings.qemuCPU)
        let timeout = source.settings.timeout ?? options.timeout
        let workspace: TemporaryDirectory
        do {
            workspace = try TemporaryDirectory(prefix: "case", environment: ["TMPDIR": scratch])
        } catch {
            return RunnerResult(runner: runner.name, status: .error, message: "\(error)")
        }
        defer { workspace.remove() }
        var programPath = executable
        if case .custom = runner.kind {
            // A prefix runner sees `./name` relative to the case folder, so argv[0] is stable.
            let local = workspace.path + "/" + source.stem
            if link(executable, local) == 0 || (try? AtomicFile.copy(executable, to: local)) != nil {
                programPath = "./" + source.stem
            }
        }
        var command = runner.command(executable: programPath, argv0: "./" + source.stem, arguments: testCase.arguments)
        command.workingDirectory = workspace.path
        command.environment = environment(for: testCase, home: workspace.path)
        var launch = LaunchOptions()
        launch.stdin = .bytes(testCase.stdin.bytes)
        let outputLimit = source.settings.outputLimit ?? options.outputLimit
        launch.stdout = .capture(limit: outputLimit)
        launch.stderr = .capture(limit: outputLimit)
        launch.timeout = timeout
        launch.limits = merged(
            Self.defaultLimits(timeout: timeout, processes: containment?.processLimit, native: runner.kind == .native),
            source.settings.limits)
        let scope = containment?.beginCase()
        launch.cgroupProcs = scope?.procsFile
        launch.isolation = containment?.namespaces
        let launched = Result { try context.launcher.run(command, options: launch) }
        let leftovers = scope.map { containment?.endCase($0) ?? 0 } ?? 0
        let result: ProcessResult
        do {
            result = try launched.get()
        } catch {
            return RunnerResult(runner: runner.name, status: .error, message: "\(error)")
        }
        let stderr = runner.noiseFilter.map { $0.apply(to: result.stderr) } ?? result.stderr
        let observation = Observation(stdout: TextLines(result.stdout), stderr: TextLines(stderr), status: result.termination)
        var verdict = judge(observation, against: testCase, runner: runner.name, timeout: timeout)
        if result.outputLimitExceeded {
            verdict.outputLimitExceeded = true
            verdict.status = .fail
            verdict.message =
                "output limit exceeded: more than \(outputLimit) bytes on stdout or stderr (raise it with --output-limit or `; asmrun: limit output`)"
        }
        if leftovers > 0 {
            verdict.detail = "asmrun ended \(leftovers) process\(leftovers == 1 ? "" : "es") the program left running"
            if verdict.message.isEmpty { verdict.message = verdict.detail }
        }
        verdict.observation = observation
        verdict.duration = result.duration
        verdict.location = (program.path, 1)
        return applyExpectedFailure(verdict, source.settings.expectedFailure(for: runner.name))
    }

    /// Compares an observation with the case's expectation for `runner`.
    func judge(_ observation: Observation, against testCase: TestCase, runner: String, timeout: Double) -> RunnerResult {
        var result = RunnerResult(runner: runner, status: .pass)
        let expected = testCase.effective(for: runner)
        if observation.status == .timedOut && expected.status != .timedOut && !options.update {
            result.status = .timeout
            result.message = "timed out after \(String(format: "%g", timeout)) s"
            return result
        }
        guard testCase.isRecorded || options.update else {
            result.status = .fail
            result.message = "no expectations recorded yet; run `asmrun test --update` to record them"
            return result
        }
        if !Pattern(expected.stdout).matches(observation.stdout) {
            result.diffs.append(("stdout", UnifiedDiff.make(expected: expected.stdout, actual: observation.stdout)))
        }
        if !Pattern(expected.stderr).matches(observation.stderr) {
            result.diffs.append(("stderr", UnifiedDiff.make(expected: expected.stderr, actual: observation.stderr)))
        }
        if expected.status != observation.status {
            result.diffs.append(("status", "expected \(expected.status.summary), got \(observation.status.summary)\n"))
        }
        if !result.diffs.isEmpty && options.update {
            result.message = "recorded"
        } else if !result.diffs.isEmpty {
            result.status = .fail
            result.message = result.diffs.map(\.stream).joined(separator: ", ") + " differ" + (result.diffs.count == 1 ? "s" : "")
        }
        return result
    }

    private func applyExpectedFailure(_ result: RunnerResult, _ reason: String?) -> RunnerResult {
        guard let reason, !options.update else { return result }
        var adjusted = result
        switch result.status {
        case .fail, .timeout:
            adjusted.status = .xfail
            adjusted.message = "expected failure: \(reason)"
        case .pass:
            adjusted.status = .fail
            adjusted.message = "passed, but is marked xfail (\(reason)); remove the directive"
        default: break
        }
        return adjusted
    }

    private func environment(for testCase: TestCase, home: String) -> [String: String] {
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "PWD": home,
            "LANG": "C", "LC_ALL": "C", "TERM": "dumb",
        ]
        for assignment in testCase.environment {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            environment[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return environment
    }

    private func merged(_ base: ResourceLimits, _ overrides: ResourceLimits) -> ResourceLimits {
        ResourceLimits(
            addressSpace: overrides.addressSpace ?? base.addressSpace, fileSize: overrides.fileSize ?? base.fileSize,
            cpuSeconds: overrides.cpuSeconds ?? base.cpuSeconds, processes: overrides.processes ?? base.processes,
            openFiles: overrides.openFiles ?? base.openFiles)
    }
}
