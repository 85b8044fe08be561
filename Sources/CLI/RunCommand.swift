import Build
import Glibc
import Run
import Sandbox
import Source
import Support

/// `asmrun FILE.asm`: assemble, link and run one program with the terminal's stdio.
package struct RunCommand: Sendable {
    package let options: RunOptions
    package let context: Context

    package init(options: RunOptions, context: Context) {
        self.options = options
        self.context = context
    }

    /// Runs it and returns asmrun's exit status: the program's, 124 on timeout, 125 on failure.
    package func execute() -> Int32 {
        do {
            return try executeThrowing()
        } catch {
            return Diagnostics.fail(error, in: .run, console: context.console)
        }
    }

    private func executeThrowing() throws -> Int32 {
        var source = try SourceFile.load(options.source)
        if source.settings.includeOnly {
            throw FileError(path: options.source, problem: "is marked include-only", fix: "run the program that includes it")
        }
        options.apply(to: &source.settings)
        let toolchain = context.toolchain
        let runner = try Runner.resolve(
            options.runner, format: source.format, toolchain: toolchain, policy: try context.runnerPolicy(),
            cpu: source.settings.qemuCPU)
        if source.resolvedLink == .cc, let problem = runner.libcProblem(program: options.source) { throw problem }
        let store = try ArtifactStore(options: options.cacheOptions, environment: context.environment, launcher: context.launcher)
        defer { store.close() }
        // Ctrl-C while nasm or the linker runs (in their own process group, out of the terminal's
        // reach): end them, clean up, exit 130 like the program would have.
        let interrupts = InterruptMonitor(children: context.launcher.children) { [ownsProcess = context.ownsProcess] count in
            if count > 1 && ownsProcess { _exit(ExitCode.interrupted) }
        }
        let built = Result {
            try store.build(source, dependencies: source.dependencies(), toolchain: toolchain, trace: trace)
        }
        if interrupts.stop() { return ExitCode.interrupted }
        let artifact = try built.get()
        defer { artifact.release() }
        if let output = options.output { try ExecutableFile.copy(artifact.executable, to: output) }
        let command = runner.command(
            executable: artifact.executable, argv0: "./" + source.stem, arguments: options.programArguments)
        trace?(command)
        var launch = LaunchOptions()
        launch.stdin = .inherit
        launch.stdout = .inherit
        launch.stderr = runner.noiseFilter.map { .forward(to: 2, filter: $0) } ?? .inherit
        launch.timeout = source.settings.timeout
        launch.newProcessGroup = false
        let result = try TerminalSignals.ignoringInterrupts {
            try context.launcher.run(command, options: launch)
        }
        return report(result.termination, timeout: source.settings.timeout)
    }

    private func report(_ termination: Termination, timeout: Double?) -> Int32 {
        switch termination {
        case .exited(let code):
            return code
        case .signaled(let signal):
            if signal != SIGINT {
                context.console.write(
                    "asmrun: \(options.source): killed by \(Signal.name(of: signal)) (\(Signal.description(of: signal)))\n", to: .error)
            }
            return ExitCode.signaled(signal)
        case .timedOut:
            let seconds = timeout.map { String(format: "%g", $0) } ?? "?"
            context.console.write("asmrun: \(options.source): timed out after \(seconds) s\n", to: .error)
            return ExitCode.timedOut
        }
    }

    private var trace: (@Sendable (Command) -> Void)? {
        guard options.verbose else { return nil }
        let console = context.console
        return { command in console.write("+ \(command)\n", to: .error) }
    }
}
