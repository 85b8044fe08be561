import Foundation
import Synchronization

/// What a finished (or interrupted) suite produced.
public struct SuiteOutcome: Sendable {
    /// Every case that completed, in report order.
    public var reports: [CaseReport]
    /// False when the run was interrupted or stopped by `--fail-fast` before every case ran.
    public var complete: Bool
    /// Expectation files written by `--update`.
    public var updatedFiles: [String]
}

/// Builds each program once, runs every case under every runner on a pool of worker threads,
/// and hands finished cases to the reporter in a deterministic order.
public final class SuiteRunner: Sendable {
    private struct Slot {
        var program: Int
        var testCase: TestCase
        var results: [RunnerResult?]
        var remaining: Int
        var buildDuration: Double = 0
    }

    private struct State {
        var slots: [Slot] = []
        var finished: [Int: CaseReport] = [:]
        var nextToEmit = 0
        var emitted: [CaseReport] = []
        var programRemaining: [Int] = []
        var updatedFiles: [String] = []
    }

    private let programs: [TestProgram]
    private let runners: [ObjectFormat: [Runner]]
    private let options: TestOptions
    private let context: Context
    /// Resolved once: every build of the run uses the same tools.
    private let toolchain: Toolchain
    private let store: ArtifactStore
    private let executor: CaseExecutor
    private let emit: @Sendable (CaseReport) -> Void
    private let note: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let cancelled = Atomic<Bool>(false)
    private let slotRanges: [Range<Int>]

    /// Prepares a run; `emit` receives each case in order, `note` one-line remarks.
    init(
        programs: [TestProgram], runners: [ObjectFormat: [Runner]], options: TestOptions, context: Context,
        store: ArtifactStore, scratch: String, containment: Containment?,
        emit: @escaping @Sendable (CaseReport) -> Void,
        note: @escaping @Sendable (String) -> Void
    ) {
        self.programs = programs
        self.runners = runners
        self.options = options
        self.context = context
        toolchain = context.toolchain
        self.store = store
        self.emit = emit
        self.note = note
        executor = CaseExecutor(context: context, options: options, scratch: scratch, containment: containment)
        var initial = State()
        var ranges: [Range<Int>] = []
        for (index, program) in programs.enumerated() {
            let count = runners[program.source?.format ?? .elf64]?.count ?? 0
            let start = initial.slots.count
            for testCase in program.cases {
                initial.slots.append(
                    Slot(program: index, testCase: testCase, results: Array(repeating: nil, count: count), remaining: count))
            }
            ranges.append(start..<initial.slots.count)
            initial.programRemaining.append(initial.slots.count - start)
        }
        slotRanges = ranges
        state.withLock { $0 = initial }
    }

    /// Stops starting new cases (interrupt, `--fail-fast`).
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs everything and returns when all started work is done.
    func run() -> SuiteOutcome {
        let pool = WorkPool(workers: options.jobs)
        var timings = Timings(cacheRoot: store.root)
        for index in timings.order(programs) {
            pool.submit { [self] in buildAndSchedule(index, pool) }
        }
        pool.run()
        timings.save(programDurations())
        return state.withLock { state in
            let complete = state.emitted.count == state.slots.count
            // Emit what finished after a gap left by cancelled cases.
            for key in state.finished.keys.sorted() where key >= state.nextToEmit {
                state.emitted.append(state.finished[key]!)
            }
            return SuiteOutcome(reports: state.emitted, complete: complete, updatedFiles: state.updatedFiles.sorted())
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

    private func runnerList(for program: TestProgram) -> [Runner] {
        runners[program.source?.format ?? .elf64] ?? []
    }

    private func buildAndSchedule(_ index: Int, _ pool: WorkPool) {
        let program = programs[index]
        let list = runnerList(for: program)
        guard !cancelled.load(ordering: .relaxed) else { return }
        guard let source = program.source, program.problem == nil else {
            failAll(index, list, RunnerResult(runner: "", status: .error, message: program.problem ?? "cannot be loaded"))
            return
        }
        let start = monotonicSeconds()
        let artifact: Artifact
        do {
            artifact = try store.build(source, toolchain: toolchain, trace: trace)
        } catch let failure as BuildFailure {
            var result = RunnerResult(runner: "", status: .error, message: "\(failure.stage.rawValue) failed")
            result.detail = failure.description
            result.location = failure.location ?? (program.path, 1)
            failAll(index, list, result)
            return
        } catch {
            failAll(index, list, RunnerResult(runner: "", status: .error, message: "\(error)"))
            return
        }
        let buildDuration = monotonicSeconds() - start
        let pendingRuns = Mutex(slotRanges[index].count * list.count)
        for slot in slotRanges[index] {
            let testCase = state.withLock { state in
                state.slots[slot].buildDuration = buildDuration
                return state.slots[slot].testCase
            }
            for (runnerIndex, runner) in list.enumerated() {
                if let reason = source.settings.skipReason(for: runner.name) {
                    complete(slot, runnerIndex, RunnerResult(runner: runner.name, status: .skip, message: reason))
                    if pendingRuns.withLock({
                        $0 -= 1; return $0 == 0
                    }) {
                        artifact.release()
                    }
                    continue
                }
                pool.submit(urgent: true) { [self] in
                    defer {
                        if pendingRuns.withLock({
                            $0 -= 1; return $0 == 0
                        }) {
                            artifact.release()
                        }
                    }
                    guard !cancelled.load(ordering: .relaxed) else { return }
                    let result = executor.run(testCase, of: program, source: source, executable: artifact.executable, runner: runner)
                    complete(slot, runnerIndex, result)
                }
            }
        }
        if slotRanges[index].isEmpty || list.isEmpty { artifact.release() }
    }

    private func failAll(_ index: Int, _ list: [Runner], _ template: RunnerResult) {
        for slot in slotRanges[index] {
            for (runnerIndex, runner) in list.enumerated() {
                var result = template
                result.runner = runner.name
                if result.location == nil { result.location = (programs[index].path, 1) }
                complete(slot, runnerIndex, result)
            }
        }
    }

    private func complete(_ slot: Int, _ runnerIndex: Int, _ result: RunnerResult) {
        if options.failFast && !result.isSuccess && result.status != .skip { cancel() }
        let (report, programDone): (CaseReport?, Int?) = state.withLock { state in
            state.slots[slot].results[runnerIndex] = result
            state.slots[slot].remaining -= 1
            guard state.slots[slot].remaining == 0 else { return (nil, nil) }
            let finished = state.slots[slot]
            let program = programs[finished.program]
            var report = CaseReport(
                program: program.path, caseName: finished.testCase.name, results: finished.results.compactMap { $0 },
                divergence: nil, buildDuration: finished.buildDuration)
            report.divergence = Divergence.describe(report.results)
            state.programRemaining[finished.program] -= 1
            return (report, state.programRemaining[finished.program] == 0 ? finished.program : nil)
        }
        guard let report else { return }
        if let programDone, options.update { record(programDone) }
        state.withLock { state in
            state.finished[slot] = report
            while let next = state.finished[state.nextToEmit] {
                state.finished.removeValue(forKey: state.nextToEmit)
                state.emitted.append(next)
                state.nextToEmit += 1
                emit(next)
            }
        }
    }

    private func record(_ index: Int) {
        let program = programs[index]
        guard program.problem == nil, let source = program.source else { return }
        var file = program.expectations
        let slots = state.withLock { Array($0.slots[slotRanges[index]]) }
        for slot in slots {
            let results = slot.results.compactMap { $0 }
            guard !results.contains(where: { $0.status == .error }) else { continue }
            let observations = results.compactMap { result -> (runner: String, observation: Observation)? in
                guard let observation = result.observation, source.settings.expectedFailure(for: result.runner) == nil,
                    !result.outputLimitExceeded
                else { return nil }
                return (result.runner, observation)
            }
            if !observations.isEmpty { file.record(caseNamed: slot.testCase.name, observations: observations) }
        }
        let text = file.serialized()
        let existing = FileManager.default.contents(atPath: program.expectationPath).map { String(decoding: $0, as: UTF8.self) }
        guard text != existing else { return }
        do {
            try file.save(to: program.expectationPath)
            state.withLock { $0.updatedFiles.append(program.expectationPath) }
        } catch {
            note("\(error)")
        }
    }

    private var trace: (@Sendable (Command) -> Void)? {
        guard options.verbose else { return nil }
        let note = self.note
        return { command in note("+ \(command)") }
    }
}
