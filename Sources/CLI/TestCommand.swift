import Build
import Glibc
import Report
import Run
import Sandbox
import Source
import Suite
import Support

/// `asmrun test`: discover, build, run, compare, report.
package struct TestCommand: Sendable {
    package let options: TestOptions
    package let context: Context

    package init(options: TestOptions, context: Context) {
        self.options = options
        self.context = context
    }

    static func main(_ arguments: [String], context: Context) -> Int32 {
        if AsmRun.wantsHelp(arguments) {
            context.console.write(Usage.test)
            return ExitCode.success
        }
        do {
            return TestCommand(options: try TestOptions(parsing: arguments), context: context).execute()
        } catch {
            return Diagnostics.fail(error, in: .test, console: context.console)
        }
    }

    /// Runs the suite: 0 when everything passed, 1 on any failure, 2 on a usage or setup error,
    /// 130 when interrupted.
    package func execute() -> Int32 {
        let started = monotonicSeconds()
        do {
            let toolchain = context.toolchain
            if options.list {
                let documents = try TemporaryDirectory(prefix: "list", environment: context.environment)
                defer { documents.remove() }
                let suite = try selectPrograms(documents: documents.path)
                list(suite, try resolveRunners(for: suite.programs, toolchain: toolchain))
                return ExitCode.success
            }
            // What a run that died left: its scratch folders and the case processes still in them.
            AbandonedScratch.sweep(environment: context.environment)
            // Sources nobody reviewed build in a view of their suite's folders (`BuildView`);
            // the reference's, trusted, outside it, and out of the others' sight.
            // (`ASMRUN_BUILD_VIEW=0` leaves builds as they were, for the bench's row 7f.)
            let contain = options.isolate && context.environment["ASMRUN_BUILD_VIEW"] != "0"
            let bounds = contain ? BuildBounds(paths: options.paths, trusted: options.referencePath.map { [$0] } ?? []) : nil
            let store = try ArtifactStore(
                options: options.cache, environment: context.environment, launcher: context.launcher, bounds: bounds,
                callerFlags: options.callerFlags, uncontained: { [console = context.console] in console.write($0 + "\n", to: .error) })
            defer { store.close() }
            let scratch = try TemporaryDirectory(prefix: "test", environment: context.environment, claimed: true)
            defer { scratch.remove() }
            // The namespaces and the probes of what this host allows take milliseconds of system
            // calls, made while the suite loads.
            let containment = Pending { [options, context] in
                Containment(
                    writable: scratch.path,
                    visible: [store.scratch] + store.runnableFolders + Self.prefixRunners(options.runners, context, toolchain),
                    isolate: options.isolate, folderBytes: options.scratchLimit, launcher: context.launcher)
            }
            defer { containment.value.close(reapingAll: context.ownsProcess) }
            if options.isolate, options.untrusted || options.referencePath != nil,
                let refusal = containment.value.proc.untrustedRefusal
            {
                throw UsageError(refusal.problem, fix: refusal.fix)
            }
            guard let (suite, ahead, loading) = try loadBuildingAhead(store: store, toolchain: toolchain) else {
                return ExitCode.interrupted
            }
            defer { ahead.close() }
            let runners: [ObjectFormat: [Runner]]
            do { runners = try resolveRunners(for: suite.programs, toolchain: toolchain) } catch {
                _ = loading.stop()
                throw error
            }
            return run(
                suite, runners, toolchain: toolchain, store: store, ahead: ahead, loading: loading,
                scratch: scratch.path, containment: containment.value, started: started)
        } catch {
            return Diagnostics.fail(error, in: .test, console: context.console)
        }
    }

    /// Loads the suite while other cores already build the programs loaded so far; Ctrl-C
    /// meanwhile stops the builds (`nil`: exit 130). The monitor returned listens on: builds
    /// started ahead may still run until `run`'s own monitor listens, and stops it then.
    private func loadBuildingAhead(
        store: ArtifactStore, toolchain: Toolchain
    ) throws -> (TestSuite, BuildAhead, InterruptMonitor)? {
        let console = context.console
        var trace: (@Sendable (String) -> Void)?
        if options.verbose { trace = { line in console.write("+ \(DisplayText.escape(line))\n", to: .error) } }
        // A program's hashed shard is known as soon as it is read; balanced shards only once
        // every program is.
        let workers = options.balancePath == nil ? max(1, options.jobs - 1) : 0
        let ahead = BuildAhead(store: store, toolchain: toolchain, workers: workers, trace: trace)
        // A Regex is not Sendable: with --filter the suite loads on this thread alone (`loaders`).
        nonisolated(unsafe) let filter = options.filter.flatMap { try? Regex($0) }
        let stopped = Flag()
        let interrupts = InterruptMonitor(children: context.launcher.children) { [ownsProcess = context.ownsProcess] count in
            stopped.set()
            ahead.stopAccepting()
            if count > 1 && ownsProcess { _exit(ExitCode.interrupted) }
        }
        let suite = Result {
            try selectPrograms(documents: store.scratch, stop: { stopped.isSet }) { program in
                if let filter, program.selecting(filter) == nil { return }
                if let shard = options.shard, !shard.holds(program) { return }
                ahead.offer(program)
            }
        }
        ahead.stopAccepting()
        if case .success(let loaded) = suite, !interrupts.interrupted { return (loaded, ahead, interrupts) }
        let interrupted = interrupts.stop()
        ahead.close()
        if interrupted { return nil }
        return (try suite.get(), ahead, interrupts)
    }

    private func list(_ suite: TestSuite, _ runners: [ObjectFormat: [Runner]]) {
        for program in suite.programs {
            let names = runners[program.format]?.map(\.name).joined(separator: ",") ?? ""
            for testCase in program.cases {
                context.console.write("\(program.id(of: testCase.name).displayEscaped) [\(names.displayEscaped)]\n")
            }
        }
    }

    private func run(
        _ suite: TestSuite, _ runners: [ObjectFormat: [Runner]], toolchain: Toolchain, store: ArtifactStore, ahead: BuildAhead,
        loading: InterruptMonitor, scratch: String, containment: Containment, started: Double
    ) -> Int32 {
        removeAbandoned(suite)
        let total = suite.programs.reduce(0) { $0 + $1.cases.count * (runners[$1.format]?.count ?? 0) }
        let reporter = ConsoleReporter(
            console: context.console, verbose: options.verbose, environment: context.environment, total: total,
            accept: options.acceptCommand)
        for note in containment.notes { reporter.note("note: \(note)") }
        let caseRunner = CaseRunner(
            launcher: context.launcher, scratch: scratch, containment: containment,
            crashProbe: CrashProbe.make(launcher: context.launcher, toolchain: toolchain))
        let runner = SuiteRunner(
            programs: suite.programs, runners: runners, configuration: options.configuration, toolchain: toolchain,
            store: store, caseRunner: caseRunner, builtAhead: ahead, emit: reporter.caseFinished, progress: reporter.caseRan,
            note: reporter.note)
        let interrupts = InterruptMonitor(children: context.launcher.children) { [ownsProcess = context.ownsProcess] count in
            runner.interrupt()
            if count > 1 && ownsProcess { _exit(ExitCode.interrupted) }
        }
        // From here this monitor listens: an interrupt that came while the runners were resolved
        // (builds ahead still running, their tools ended) is the run's.
        let interruptedBefore = loading.stop(handingOver: true)
        if interruptedBefore { runner.interrupt() }
        let outcome = runner.run()
        let interrupted = interrupts.stop() || interruptedBefore
        return finish(outcome, suite, reporter, interrupted: interrupted, seconds: monotonicSeconds() - started, expected: total)
    }

    /// Where the prefix runners named with `--runner` are: cases must see them, wherever they are.
    private static func prefixRunners(_ choices: [RunnerChoice], _ context: Context, _ toolchain: Toolchain) -> [String] {
        guard let policy = try? context.runnerPolicy() else { return [] }
        let found = choices.compactMap { choice -> String? in
            guard case .custom = choice, let runner = try? Runner.resolve(choice, format: .elf64, toolchain: toolchain, policy: policy),
                case .custom(let words) = runner.kind
            else { return nil }
            return toolchain.locator.find(words[0])
        }
        return Set(found).sorted()
    }

    /// Temporary files of `.expect` rewrites a dead run left beside the sources (only those whose
    /// writer's lock is gone).
    private func removeAbandoned(_ suite: TestSuite) {
        for (folder, names) in Dictionary(grouping: suite.temporaryFiles, by: \.folder) {
            AtomicFile.removeAbandoned(in: folder, names: names.map(\.name))
        }
    }

    /// The runners for each format (the build may find a program is elf32; a format no program
    /// has yet gets what can be resolved); `native` is dropped, once, where the host cannot run it.
    private func resolveRunners(for programs: [TestProgram], toolchain: Toolchain) throws -> [ObjectFormat: [Runner]] {
        let present = Set(programs.compactMap { $0.program?.format })
        var resolved: [ObjectFormat: [Runner]] = [:]
        var noted = false
        let policy = try context.runnerPolicy()
        for format in ObjectFormat.allCases {
            var list: [Runner] = []
            for choice in options.runners {
                do {
                    let runner = try Runner.resolve(choice, format: format, toolchain: toolchain, policy: policy)
                    if !list.contains(where: { $0.name == runner.name }) { list.append(runner) }
                } catch  where !present.contains(format) && format != .elf64 {
                    continue
                } catch is RunnerUnavailable where choice == .native {
                    if present.contains(format) && !noted {
                        noted = true
                        context.console.write(
                            "note: native runner skipped: x86 programs do not run natively on this \(toolchain.host.architecture) host\n",
                            to: .error)
                    }
                }
            }
            if list.isEmpty && present.contains(format) {
                throw UsageError("no runner left for \(format.rawValue) programs on this host", fix: "use `--runner qemu`")
            }
            resolved[format] = list
        }
        return resolved
    }
}
