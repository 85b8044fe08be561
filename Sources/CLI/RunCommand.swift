import Build
import Glibc
import Processes
import Run
import Sandbox
import Session
import Source
import Support

/// `asmrun FILE.asm`: assemble, link and run one program with the terminal's stdio.
struct RunCommand: Sendable {
    let options: RunOptions
    let context: Context
    /// `--watch`: what the runs watch, and a save that ends the program.
    var watching: RunWatch?

    init(options: RunOptions, context: Context) {
        self.options = options
        self.context = context
    }

    /// Runs it and returns asmrun's exit status: the program's, 124 on timeout, 125 on failure.
    func execute() -> Int32 {
        if options.watch { return watch() }
        do {
            return try executeThrowing()
        } catch {
            return ExitStatus.failed(error, in: .run, context.diagnostics)
        }
    }

    /// A program built and its runner chosen, ready to run (or to debug).
    struct Prepared {
        var program: Program
        var artifact: Artifact
        var runner: Runner
        var toolchain: Toolchain
        let store: ArtifactStore

        func close() {
            artifact.release()
            store.close()
        }

        /// The same sources built with line tables for gdb, unless the artifact has its own.
        func debugBuild() -> Artifact? {
            store.debugBuild(of: program, matching: artifact, toolchain: toolchain)
        }

        /// The built program as the crash probe and `asmrun debug` see it, with `symbols`' lines.
        func probeProgram(symbols: Artifact?) -> CrashProbe.Program {
            CrashProbe.Program(
                executable: artifact.executable, format: artifact.format, sources: program.filesAndIncludes,
                warnings: artifact.remarks, symbols: symbols?.executable)
        }
    }

    /// Loads and builds the program, prints what the build said, picks the runner and keeps the
    /// executable at `-o`; `nil` when an interrupt stopped the build.
    func prepare() throws -> Prepared? {
        let toolchain = context.toolchain
        AbandonedScratch.sweep(environment: context.environment)
        let store = try ArtifactStore(
            options: options.cacheOptions, environment: context.environment, launcher: context.launcher, writesAtOnce: true)
        // Ctrl-C while nasm or the linker runs (in their own process group, out of the terminal's
        // reach): end them, clean up, exit 130 like the program would have. The build waits for
        // nothing but them, so whoever waits on them hands the interrupt over (no thread).
        let interrupts = InterruptMonitor(children: context.launcher.children, delivery: .byWaiters) {
            [abandon = context.abandon] count in
            if count > 1 { abandon?() }
        }
        // Not a `Result`: its generic type's first use looked through every conformance in the
        // binary (4 % of a single run's instructions).
        let program: Program
        let artifact: Artifact
        do {
            (program, artifact) = try build(try loadProgram(), store: store, toolchain: toolchain)
        } catch {
            let interrupted = interrupts.stop()
            store.close()
            if interrupted { return nil }
            throw error
        }
        if interrupts.stop() {
            store.close()
            return nil
        }
        do {
            let remarks = options.checks ? artifact.remarks : EmulationWarning.removing(from: artifact.remarks)
            if !remarks.isEmpty { context.diagnostics.warning(remarks, multiline: true) }
            let runner = try Runner.resolve(
                options.runner, format: artifact.format, toolchain: toolchain, policy: try context.runnerPolicy(),
                cpu: program.settings.qemuCPU)
            if artifact.dynamic, let problem = runner.libcProblem(program: program.path) { throw problem }
            if let output = options.output {
                try Self.refuseInput(output, option: "-o", replacing: "the executable", program, headers: artifact.headers)
                AtomicFile.removeAbandoned(besides: output)
                try ExecutableFile.copy(artifact.executable, to: output, length: artifact.length)
            }
            return Prepared(program: program, artifact: artifact, runner: runner, toolchain: toolchain, store: store)
        } catch {
            artifact.release()
            store.close()
            throw error
        }
    }

    func executeThrowing() throws -> Int32 {
        guard let prepared = try prepare() else { return ExitStatus.interrupted }
        defer { prepared.close() }
        watching?.record(prepared.program, headers: prepared.artifact.headers)
        let (program, artifact, runner) = (prepared.program, prepared.artifact, prepared.runner)
        let trace =
            options.strace ? try SystemCallTrace(runner: runner, toolchain: prepared.toolchain, environment: context.environment) : nil
        var command = runner.command(
            executable: artifact.executable, argv0: program.argv0, arguments: options.programArguments)
        if let trace { command = trace.wrap(command) }
        self.trace?("\(command)")
        // A crash is repeated under the debugger with the same input: a pipe is relayed so that
        // what the program read can be given again (only then, and only by the command-line tool,
        // whose exit ends the relay's thread).
        let debuggable: Bool
        switch runner.kind {
        case .native, .qemu: debuggable = options.crashReport
        case .binfmt, .custom: debuggable = false
        }
        let input = CallerInput(relaying: debuggable && context.ownsProcess && watching == nil)
        var launch = LaunchOptions()
        launch.stdin = input.source
        launch.stdout = .inherit
        // qemu's own line on a crash is filtered out of standard error, through a relay; but
        // where standard error is standard output's file (a terminal, `2>&1`) the relay would
        // put the program's lines out of order, and there standard error is passed as it is.
        let sharesOutput = Files.sameOpenFile(1, 2)
        launch.stderr = sharesOutput ? .inherit : runner.noiseFilter.map { .forward(to: 2, filter: $0) } ?? .inherit
        launch.timeout = program.settings.timeout
        launch.newProcessGroup = false
        let result = try launchProgram(command, launch, input: input)
        if let trace { context.diagnostics.remark(trace.report(program: program.path), multiline: true) }
        guard case .signaled(let signal) = result.termination, CrashProbe.crashSignals.contains(signal), debuggable else {
            return report(result.termination, timeout: program.settings.timeout)
        }
        switch crashReport(prepared, input: input, signal: signal) {
        case .report(let crash):
            context.diagnostics.remark(crash.rendered(program: program.path), multiline: true)
            if options.checks { for finding in abiFindings(prepared, input: input) { context.diagnostics.remark("asmrun: " + finding) } }
            return ExitStatus.program(result.termination)
        case .notRepeated(let shortfall):
            let status = report(result.termination, timeout: program.settings.timeout)
            context.diagnostics.remark("asmrun: no crash report: " + Self.notRepeated(shortfall, source: options.source))
            return status
        case .noDebugger(let missing):
            let status = report(result.termination, timeout: program.settings.timeout)
            context.console.write("asmrun: no crash report: " + DisplayText.escape(missing.message) + "\n", to: .error)
            return status
        case .unavailable:
            return report(result.termination, timeout: program.settings.timeout)
        }
    }

    /// What repeating a crash under the debugger gave.
    private enum CrashOutcome {
        case report(CrashReport)
        /// It ran and did not crash; with why its input differed from the program's, if it did.
        case notRepeated(CallerInput.Shortfall?)
        /// No debugger installed: the one line says which package brings it.
        case noDebugger(ToolError)
        /// No folder for the debugger.
        case unavailable
    }

    /// The run repeated under the debugger, with the program's input where it can be had again.
    private func crashReport(_ prepared: Prepared, input: CallerInput, signal: Int32) -> CrashOutcome {
        let (program, runner) = (prepared.program, prepared.runner)
        let probe: CrashProbe
        do throws(ToolError) {
            probe = try CrashProbe(launcher: context.launcher, toolchain: prepared.toolchain)
        } catch { return .noDebugger(error) }
        guard let folder = try? TemporaryDirectory(prefix: "crash", environment: context.environment) else { return .unavailable }
        defer { folder.remove() }
        let replay = input.replay()
        defer { replay.close() }
        var launch = LaunchOptions()
        launch.stdin = replay.source
        launch.timeout = min(program.settings.timeout ?? 30, 30)
        let symbols = prepared.debugBuild()
        defer { symbols?.release() }
        var run = CrashProbe.Run(
            program: prepared.probeProgram(symbols: symbols), argv0: program.argv0, arguments: options.programArguments,
            environment: nil, runner: runner)
        run.signal = signal
        let crash = probe.probe(run, in: folder.path, workingDirectory: nil, options: launch)
        return crash.map(CrashOutcome.report) ?? .notRepeated(replay.shortfall)
    }

    /// The one line for a crash that did not repeat under the debugger: why, and what to do.
    static func notRepeated(_ shortfall: CallerInput.Shortfall?, source: String) -> String {
        let debug = "`asmrun debug \(source.displayEscaped)`"
        let testCase = "give the input in a `stdin:` block of an `asmrun test` case"
        switch shortfall {
        case nil:
            return "the crash did not repeat under the debugger with the same input (it may depend on timing or on the terminal): "
                + "\(testCase), or run it under \(debug)"
        case .typed:
            return "the crash did not repeat under the debugger, where the input typed at the terminal cannot be replayed: "
                + "\(testCase), or run it under \(debug) and type it there"
        case .tooLarge(let limit):
            return "the crash did not repeat under the debugger, which read an empty stdin: more than \(limit >> 20) MiB was piped in, "
                + "more than asmrun keeps to replay; give it a file instead (`asmrun \(source.displayEscaped) < FILE`), or \(testCase)"
        case .closed:
            return "the crash did not repeat under the debugger, which read an empty stdin where the program's was closed: "
                + "run it under \(debug)"
        case .unavailable:
            return "the crash did not repeat under the debugger, which read an empty stdin: asmrun could not read the program's again; "
                + "\(testCase), or run it under \(debug)"
        }
    }

    /// The files or the folder named, with the command line's settings applied.
    private func loadProgram() throws -> Program {
        var program: Program
        if options.sources.count == 1 && Files.isDirectory(options.source) {
            program = try Program.load(folder: options.source, overriding: options.apply)
        } else {
            for extra in options.sources.dropFirst() where Program.SourceKind(path: extra) == nil {
                throw UsageError(
                    "`\(extra)` is not a source (.asm, .c, .o, .a)",
                    fix: "pass program arguments after `--`: asmrun \(options.source) -- \(extra)")
            }
            program = try Program.load(files: options.sources, overriding: options.apply)
        }
        if program.settings.includeOnly {
            throw FileError(path: program.path, problem: "is marked include-only", fix: "run the program that includes it")
        }
        // The paths named here, and `-I` folders, are the user's: what the sources name must be in them.
        let bounds = ProgramBounds(roots: options.sources + options.includeDirectories)
        if let refusal = bounds.refusal(of: program) {
            let fix = [.notObject, .script].contains(refusal.kind) ? refusal.fix(root: bounds.root) : Self.boundsFix
            throw FileError(path: refusal.source.path, line: refusal.source.line, problem: refusal.problem(outside: bounds.root), fix: fix)
        }
        return program
    }

    /// Builds `program`; a file of functions whose folder holds a C `main` is built with that
    /// folder's C files, as the layout of a test driver beside asm functions means.
    private func build(_ program: Program, store: ArtifactStore, toolchain: Toolchain) throws -> (Program, Artifact) {
        do {
            return (program, try store.build(program, toolchain: toolchain, trace: trace, debugInfo: options.debugInfo))
        } catch let missing as EntryPointMissing where !program.isFolder && program.cSources.isEmpty {
            let folder = program.directory
            let companions = ProgramFolder.companionC(of: folder)
            let drivers = companions.compactMap { try? CSourceFile.load($0) }.filter(\.definesMain)
            guard !drivers.isEmpty else { throw missing }
            var withDrivers = program
            try withDrivers.add(companions)
            withDrivers.resolveDependencies()
            let names = withDrivers.cSources.map(\.path).joined(separator: ", ")
            context.diagnostics.note(
                "\(program.path) defines no entry point; building it with the C files of its folder: \(names)", tagged: true)
            return (withDrivers, try store.build(withDrivers, toolchain: toolchain, trace: trace, debugInfo: options.debugInfo))
        }
    }

    /// Says how the program ended, unless by an exit or Ctrl-C, and returns the status.
    private func report(_ termination: Termination, timeout: Double?) -> Int32 {
        switch termination {
        case .exited: break
        case .signaled(let signal):
            if signal != SIGINT {
                context.diagnostics.remark(
                    "asmrun: \(options.source): killed by \(Signal.name(of: signal)) (\(Signal.description(of: signal)))")
            }
        case .timedOut:
            let seconds = timeout.map { String(format: "%g", $0) } ?? "?"
            context.diagnostics.remark("asmrun: \(options.source): timed out after \(seconds) s")
        }
        return ExitStatus.program(termination)
    }

    private var trace: (@Sendable (String) -> Void)? {
        guard options.verbose else { return nil }
        return { [diagnostics = context.diagnostics] line in diagnostics.trace(line) }
    }

    static let boundsFix =
        "if you trust it, name it, or -I its folder, on the command line too (asmrun main.asm -I ../common)"

}
