import Build
import Compare
import Processes
import Run
import Source
import Support
import Synchronization

/// Builds each program once, runs every case under every runner on a pool of worker threads,
/// and hands finished cases on in a deterministic order. Ordering, recording and artifact
/// lifetimes are their own types; this one schedules and collects.
package final class SuiteRunner: Sendable {
    struct Slot {
        var program: Int
        var testCase: TestCase
        var results: [RunnerResult?]
        var remaining: Int
        var buildDuration: Double = 0
    }

    struct State {
        var slots: [Slot] = []
        var programRemaining: [Int] = []
        var updatedFiles: [String] = []
        /// `--update`: finished cases wait here until their recordings are written (or not).
        var held: [Int: CaseReport] = [:]
        /// Programs whose recording was attempted (written, unchanged or failed).
        var committed: Set<Int> = []
    }

    let programs: [TestProgram]
    private let runners: [ObjectFormat: [Runner]]
    let configuration: SuiteConfiguration
    private let stages: any SuiteStages
    private let builtAhead: BuildAhead?
    /// Each run's own (`run` may be called again).
    private let sequencers: Mutex<ReportSequencer>
    /// The state a run starts from.
    private let initial: State
    let emit: @Sendable (CaseReport) -> Void
    private let progress: @Sendable (Int) -> Void
    let note: @Sendable (String) -> Void
    let state: Mutex<State>
    private let cancelled = Atomic<Bool>(false)
    private let interrupted = Atomic<Bool>(false)
    let slotRanges: [Range<Int>]

    /// Prepares a run that builds with `store` and runs with `caseRunner`.
    package convenience init(
        programs: [TestProgram], runners: [ObjectFormat: [Runner]], configuration: SuiteConfiguration,
        toolchain: Toolchain, store: ArtifactStore, caseRunner: CaseRunner, builtAhead: BuildAhead? = nil,
        emit: @escaping @Sendable (CaseReport) -> Void, progress: @escaping @Sendable (Int) -> Void = { _ in },
        note: @escaping @Sendable (String) -> Void
    ) {
        self.init(
            programs: programs, runners: runners, configuration: configuration,
            stages: BuildAndRunStages(toolchain: toolchain, store: store, caseRunner: caseRunner, configuration: configuration),
            builtAhead: builtAhead, emit: emit, progress: progress, note: note)
    }

    /// Prepares a run; `emit` receives each case in report order (with `--update`, all of them
    /// at the end, once their recordings are written), `progress` the number of results of each
    /// case as it finishes while they are held back, `note` one-line remarks.
    package init(
        programs: [TestProgram], runners: [ObjectFormat: [Runner]], configuration: SuiteConfiguration,
        stages: any SuiteStages, builtAhead: BuildAhead? = nil,
        emit: @escaping @Sendable (CaseReport) -> Void, progress: @escaping @Sendable (Int) -> Void = { _ in },
        note: @escaping @Sendable (String) -> Void
    ) {
        self.programs = programs
        self.runners = runners
        self.configuration = configuration
        self.stages = stages
        self.note = note
        self.builtAhead = builtAhead
        self.emit = emit
        self.progress = progress
        sequencers = Mutex(ReportSequencer(emit: emit))
        var initial = State()
        var ranges: [Range<Int>] = []
        for (index, program) in programs.enumerated() {
            let count = runners[program.format]?.count ?? 0
            let start = initial.slots.count
            for testCase in program.cases {
                initial.slots.append(
                    Slot(program: index, testCase: testCase, results: Array(repeating: nil, count: count), remaining: count))
            }
            ranges.append(start..<initial.slots.count)
            initial.programRemaining.append(initial.slots.count - start)
        }
        slotRanges = ranges
        self.initial = initial
        state = Mutex(initial)
    }

    /// Stops starting new cases (`--fail-fast`).
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// An interrupt (Ctrl-C, SIGTERM) arrived: no new case starts and nothing is recorded.
    package func interrupt() {
        interrupted.store(true, ordering: .relaxed)
        cancel()
    }

    private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    private var sequencer: ReportSequencer { sequencers.withLock { $0 } }

    /// Runs everything and returns when all started work is done; the runner is then ready to
    /// run the same suite again (an interrupt or a cancel before `run` holds for that run).
    package func run() -> SuiteOutcome {
        defer { reset() }
        let pool = WorkPool(workers: configuration.jobs)
        var timings = Timings(cacheRoot: stages.timingsFolder)
        for index in timings.order(programs) {
            pool.submit { [self] in buildAndSchedule(index, pool) }
        }
        pool.run()
        timings.save(programDurations())
        let (emitted, late) = configuration.recording ? (commitRecordings(), []) : sequencer.collected()
        let unshown = (late + partialReports()).sorted { $0.index < $1.index }.map(\.report)
        // An interrupt ends the cases it finds running: even when every case had started, the run is not complete.
        let complete =
            !isInterrupted
            && state.withLock { emitted.count + late.count == $0.slots.count && $0.programRemaining.allSatisfy { $0 == 0 } }
        return SuiteOutcome(
            reports: emitted + unshown, unshown: unshown, complete: complete, updatedFiles: state.withLock { $0.updatedFiles.sorted() })
    }

    /// Back to the state of a run not started.
    private func reset() {
        state.withLock { $0 = initial }
        sequencers.withLock { $0 = ReportSequencer(emit: emit) }
        cancelled.store(false, ordering: .relaxed)
        interrupted.store(false, ordering: .relaxed)
    }

    /// Cases some of whose runners finished before the run stopped (`--fail-fast`, an
    /// interrupt): what they did is reported, with the runners that ran.
    private func partialReports() -> [(index: Int, report: CaseReport)] {
        state.withLock { state in
            state.slots.indices.compactMap { index in
                let slot = state.slots[index]
                let results = slot.results.compactMap { $0 }
                guard slot.remaining > 0, !results.isEmpty else { return nil }
                var report = CaseReport(
                    program: programs[slot.program].path, caseName: slot.testCase.name, results: results,
                    divergence: Divergence.describe(results), buildDuration: slot.buildDuration)
                report.quiet = programs[slot.program].quiet
                report.visibility = slot.testCase.visibility
                return (index, report)
            }
        }
    }

    /// Build plus run time per program that ran completely.
    private func programDurations() -> [String: Double] {
        state.withLock { state in
            var durations: [String: Double] = [:]
            for (index, range) in slotRanges.enumerated() where state.programRemaining[index] == 0 && !range.isEmpty {
                let runs = state.slots[range].reduce(0) { total, slot in
                    total + slot.results.reduce(0) { $0 + ($1?.duration ?? 0) }
                }
                durations[programs[index].path] = state.slots[range.lowerBound].buildDuration + runs
            }
            return durations
        }
    }

    private func buildAndSchedule(_ index: Int, _ pool: WorkPool) {
        let test = programs[index]
        guard !isCancelled else { return }
        guard let program = test.program, test.problem == nil else {
            var result = RunnerResult(runner: "", status: .error, message: test.problem ?? "cannot be loaded")
            result.location = test.problemLocation
            failAll(index, result)
            return
        }
        let start = monotonicSeconds()
        let built =
            builtAhead?.take(test.buildKey) ?? (
                Result { try stages.build(program, trace: trace) }, monotonicSeconds() - start
            )
        let artifact: Artifact
        do {
            artifact = try built.result.get()
        } catch is InterruptedError {
            failAll(index, Judge.interrupted(runner: "", recording: configuration.recording))
            return
        } catch let failure as BuildFailure {
            var result = RunnerResult(runner: "", status: .error, message: failure.problem)
            result.detail = failure.rendered
            result.location = failure.errorLocation ?? FileLocation(test.path, line: 1)
            failAll(index, result)
            return
        } catch {
            var result = RunnerResult(runner: "", status: .error, message: "\(error)")
            result.location = FileLocation(test.path, line: 1)
            failAll(index, result)
            return
        }
        let buildDuration = built.seconds
        schedule(index, program, artifact, buildDuration, pool)
    }

    /// Queues every case and runner of a built program ahead of further builds.
    private func schedule(_ index: Int, _ program: Program, _ artifact: Artifact, _ buildDuration: Double, _ pool: WorkPool) {
        let test = programs[index]
        // The build may have found the program is elf32; its runners are then elf32's.
        var list = runners[artifact.format] ?? []
        if list.count != runners[test.format]?.count {
            list = runners[test.format] ?? []
        }
        let lease = ArtifactLease(artifact, uses: slotRanges[index].count * list.count)
        for slot in slotRanges[index] {
            let testCase = state.withLock { state in
                state.slots[slot].buildDuration = buildDuration
                return state.slots[slot].testCase
            }
            for (runnerIndex, runner) in list.enumerated() {
                if let reason = program.settings.skipReason(for: runner.name) {
                    complete(slot, runnerIndex, RunnerResult(runner: runner.name, status: .skip, message: reason))
                    lease.done()
                    continue
                }
                if artifact.dynamic, let problem = runner.libcProblem(program: program.path) {
                    var result = RunnerResult(runner: runner.name, status: .error, message: problem.message)
                    result.location = FileLocation(program.path, line: 1)
                    complete(slot, runnerIndex, result)
                    lease.done()
                    continue
                }
                pool.submit(urgent: true) { [self] in
                    defer { lease.done() }
                    guard !isCancelled else { return }
                    let result = Retries.run(retries: configuration.retries, stopped: { isCancelled }) {
                        stages.run(testCase, of: test, program: program, artifact: artifact, runner: runner)
                    }
                    complete(slot, runnerIndex, result)
                }
            }
        }
    }

    private func failAll(_ index: Int, _ template: RunnerResult) {
        for slot in slotRanges[index] {
            let testCase = state.withLock { $0.slots[slot].testCase }
            for (runnerIndex, runner) in (runners[programs[index].format] ?? []).enumerated() {
                var result = template
                result.runner = runner.name
                // A program that could not be read (or that a submission lacks): the case's line.
                if result.location == nil { result.location = programs[index].location(of: testCase, stream: nil, runner: runner.name) }
                complete(slot, runnerIndex, result)
            }
        }
    }

    private func complete(_ slot: Int, _ runnerIndex: Int, _ result: RunnerResult) {
        // A flaky case is no failure to stop for (it is counted apart).
        if configuration.failFast && !result.isSuccess && result.status != .skip && result.status != .flaky { cancel() }
        let finished = state.withLock { state -> CaseReport? in
            state.slots[slot].results[runnerIndex] = programs[state.slots[slot].program].naming(result)
            state.slots[slot].remaining -= 1
            guard state.slots[slot].remaining == 0 else { return nil }
            let done = state.slots[slot]
            let results = done.results.compactMap { $0 }
            var report = CaseReport(
                program: programs[done.program].path, caseName: done.testCase.name, results: results,
                divergence: Divergence.describe(results), buildDuration: done.buildDuration)
            report.quiet = programs[done.program].quiet
            report.visibility = done.testCase.visibility
            state.programRemaining[done.program] -= 1
            return report
        }
        guard let finished else { return }
        if configuration.recording {
            state.withLock { $0.held[slot] = finished }
            progress(finished.results.count)
        } else {
            sequencer.finished(slot, finished)
        }
    }

    private var trace: (@Sendable (String) -> Void)? {
        guard configuration.traceCommands else { return nil }
        let note = self.note
        return { line in note("+ \(line)") }
    }
}
