import Build
import Glibc
import Processes
import Report
import Run
import Sandbox
import Source
import Suite
import Support
import Synchronization

/// One `asmrun test` run from start to end, below any front end: discovery (with the
/// reference, `--filter` and `--shard`), building ahead while the suite loads, scheduling on
/// worker threads, judging, recording (`--update`) and the reports (`--json`, `--junit`,
/// Gradescope, gradebooks, the step summary). A front end makes one from a `TestPlan`, starts it
/// with `run`, observes its `TestEvent`s, and may run it again (a watch mode): each run opens
/// its own cache handle, scratch folder and containment, and closes them before it returns.
/// Errors, warnings and notes go through the context's `DiagnosticsEngine`.
package struct TestSession: Sendable {
    package let plan: TestPlan
    package let context: Context

    var diagnostics: DiagnosticsEngine { context.diagnostics }

    package init(plan: TestPlan, context: Context) {
        self.plan = plan
        self.context = context
    }

    /// `--list`: each case id and its runners, one line each (escaped).
    package func list() throws -> [String] {
        let documents = try TemporaryDirectory(prefix: "list", environment: context.environment)
        defer { documents.remove() }
        let suite = try selectPrograms(documents: documents.path)
        let runners = try resolveRunners(for: suite.programs, toolchain: context.toolchain)
        return suite.programs.flatMap { program in
            let names = runners[program.format]?.map(\.name).joined(separator: ",") ?? ""
            return program.cases.map { "\(program.id(of: $0.name).displayEscaped) [\(names.displayEscaped)]" }
        }
    }

    /// Runs the suite, telling `observe` what happens; `nil` when an interrupt came while it
    /// loaded. Throws a usage or setup error (nothing ran).
    package func run(observe: @escaping @Sendable (TestEvent) -> Void) throws -> TestOutcome? {
        let started = monotonicSeconds()
        let toolchain = context.toolchain
        // What a run that died left: its scratch folders and the case processes still in them.
        AbandonedScratch.sweep(environment: context.environment)
        // Sources nobody reviewed build in a view of their suite's folders (`BuildView`);
        // the reference's, trusted, outside it, and out of the others' sight.
        // (`ASMRUN_BUILD_VIEW=0` leaves builds as they were, for the bench's row 7f.)
        let contain = plan.isolate && context.environment["ASMRUN_BUILD_VIEW"] != "0"
        let bounds = contain ? BuildBounds(paths: plan.paths, trusted: plan.referencePath.map { [$0] } ?? []) : nil
        let store = try ArtifactStore(
            options: plan.cache, environment: context.environment, launcher: context.launcher, bounds: bounds,
            callerFlags: plan.callerFlags, uncontained: { [diagnostics] in diagnostics.remark($0) })
        defer { store.close() }
        let scratch = try TemporaryDirectory(prefix: "test", environment: context.environment, claimed: true)
        defer { scratch.remove() }
        // The namespaces and the probes of what this host allows take milliseconds of system
        // calls, made while the suite loads.
        let containment = Pending { [plan, context] in
            Containment(
                writable: scratch.path,
                visible: [store.scratch] + store.runnableFolders + Self.prefixRunners(plan.runners, context, toolchain),
                hidden: plan.referencePath.map { Reference.hiddenFolders(for: $0) } ?? [],
                isolate: plan.isolate, folderBytes: plan.scratchLimit, cgroupParent: context.environment["ASMRUN_CGROUP_PARENT"],
                launcher: context.launcher)
        }
        defer { containment.value.close(reapingAll: context.ownsProcess) }
        if plan.isolate, plan.untrusted || plan.referencePath != nil,
            let refusal = containment.value.proc.untrustedRefusal
        {
            throw UsageError(refusal.problem, fix: refusal.fix)
        }
        let watched = Watched()
        guard let (suite, ahead, loading) = try loadBuildingAhead(store: store, toolchain: toolchain, watched: watched) else { return nil }
        defer { ahead.close() }
        let runners: [ObjectFormat: [Runner]]
        do {
            try refuseReportsOverInputs(suite)
            runners = try resolveRunners(for: suite.programs, toolchain: toolchain)
        } catch {
            _ = loading.stop()
            throw error
        }
        let stages = Stages(
            toolchain: toolchain, store: store, ahead: ahead, scratch: scratch.path, containment: containment.value, started: started)
        var outcome = run(suite, runners, stages, loading: loading, observe: observe)
        outcome.watched = watched.programs.withLock { $0 }
        return outcome
    }

    /// Loads the suite while other cores already build the programs loaded so far; Ctrl-C
    /// meanwhile stops the builds (`nil`: exit 130). The monitor returned listens on: builds
    /// started ahead may still run until `run`'s own monitor listens, and stops it then.
    private func loadBuildingAhead(
        store: ArtifactStore, toolchain: Toolchain, watched: Watched
    ) throws -> (TestSuite, BuildAhead, InterruptMonitor)? {
        var trace: (@Sendable (String) -> Void)?
        if plan.verbose { trace = { [diagnostics] line in diagnostics.trace(line) } }
        // A program's hashed shard is known as soon as it is read; balanced shards only once
        // every program is.
        let workers = plan.balancePath == nil ? max(1, plan.jobs - 1) : 0
        let ahead = BuildAhead(store: store, toolchain: toolchain, workers: workers, trace: trace)
        // A Regex is not Sendable: with --filter the suite loads on this thread alone (`loaders`).
        nonisolated(unsafe) let filter = plan.filter.flatMap { try? Regex($0) }
        let stopped = Flag()
        let interrupts = InterruptMonitor(children: context.launcher.children) { [abandon = context.abandon] count in
            stopped.set()
            ahead.stopAccepting()
            if count > 1 { abandon?() }
        }
        // A watch mode learns what every program reads (a rerun's untouched ones too).
        let selected: (([TestProgram]) -> Void)? =
            plan.watch ? { programs in watched.programs.withLock { $0 = programs.map(WatchSet.Program.init) } } : nil
        let suite = Result {
            try selectPrograms(
                documents: store.scratch, stop: { stopped.isSet },
                loaded: { program in
                    if let filter, program.selecting(filter) == nil { return }
                    if let shard = plan.shard, !shard.holds(program) { return }
                    if let rerun = plan.rerun, !rerun.keeps(program.path) { return }
                    ahead.offer(program)
                }, selected: selected)
        }
        ahead.stopAccepting()
        if case .success(let loaded) = suite, !interrupts.interrupted { return (loaded, ahead, interrupts) }
        let interrupted = interrupts.stop()
        ahead.close()
        if interrupted { return nil }
        return (try suite.get(), ahead, interrupts)
    }

    /// What the programs selected read, for a watch mode.
    final class Watched: Sendable {
        let programs = Mutex<[WatchSet.Program]>([])
    }

    /// What one run opened, for the rest of it.
    private struct Stages {
        var toolchain: Toolchain
        var store: ArtifactStore
        var ahead: BuildAhead
        var scratch: String
        var containment: Containment
        var started: Double
    }

    private func run(
        _ suite: TestSuite, _ runners: [ObjectFormat: [Runner]], _ stages: Stages, loading: InterruptMonitor,
        observe: @escaping @Sendable (TestEvent) -> Void
    ) -> TestOutcome {
        removeAbandoned(suite)
        let total = suite.programs.reduce(0) { $0 + $1.cases.count * (runners[$1.format]?.count ?? 0) }
        observe(.started(total: total))
        for note in stages.containment.notes { observe(.remark("note: \(note)")) }
        let crashProbe = CrashProbe.make(launcher: context.launcher, toolchain: stages.toolchain)
        var caseRunner = CaseRunner(
            launcher: context.launcher, scratch: stages.scratch, containment: stages.containment, crashProbe: crashProbe)
        if plan.checks {
            caseRunner.abiProbe = AbiProbe.make(crashProbe: crashProbe, toolchain: stages.toolchain)
            let told = Flag()
            caseRunner.abiUnavailable = { missing in
                if told.raiseFirst() { observe(.remark("note: " + AbiProbe.missingNote(missing))) }
            }
        }
        let runner = SuiteRunner(
            programs: suite.programs, runners: runners, configuration: plan.configuration, toolchain: stages.toolchain,
            store: stages.store, caseRunner: caseRunner, builtAhead: stages.ahead, emit: { observe(.caseFinished($0)) },
            progress: { observe(.casesRan($0)) }, note: { observe(.remark($0)) })
        let interrupts = InterruptMonitor(children: context.launcher.children) { [abandon = context.abandon] count in
            runner.interrupt()
            if count > 1 { abandon?() }
        }
        // From here this monitor listens: an interrupt that came while the runners were resolved
        // (builds ahead still running, their tools ended) is the run's.
        let interruptedBefore = loading.stop(handingOver: true)
        if interruptedBefore { runner.interrupt() }
        let outcome = runner.run()
        let interrupted = interrupts.stop() || interruptedBefore
        return finish(
            outcome, suite, interrupted: interrupted, seconds: monotonicSeconds() - stages.started, expected: total, observe: observe)
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
            for choice in plan.runners {
                do {
                    let runner = try Runner.resolve(choice, format: format, toolchain: toolchain, policy: policy)
                    if !list.contains(where: { $0.name == runner.name }) { list.append(runner) }
                } catch  where !present.contains(format) && format != .elf64 {
                    continue
                } catch is RunnerUnavailable where choice == .native {
                    if present.contains(format) && !noted {
                        noted = true
                        diagnostics.note(
                            "native runner skipped: x86 programs do not run natively on this \(toolchain.host.architecture) host")
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
