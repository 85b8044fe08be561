import Synchronization

/// Hands finished cases on in report order, whatever order they finish in, and never inside
/// its lock: whichever worker completes the next case in order drains everything ready, while
/// the others go back to work.
final class ReportSequencer: Sendable {
    private struct State {
        var finished: [Int: CaseReport] = [:]
        var next = 0
        var ready: [CaseReport] = []
        var draining = false
        var emitted: [CaseReport] = []
    }

    private let state = Mutex(State())
    private let emit: @Sendable (CaseReport) -> Void

    init(emit: @escaping @Sendable (CaseReport) -> Void) { self.emit = emit }

    /// Case number `index` (in report order) is complete.
    func finished(_ index: Int, _ report: CaseReport) {
        var batch: [CaseReport] = state.withLock { state in
            state.finished[index] = report
            while let next = state.finished.removeValue(forKey: state.next) {
                state.ready.append(next)
                state.emitted.append(next)
                state.next += 1
            }
            guard !state.draining, !state.ready.isEmpty else { return [] }
            state.draining = true
            defer { state.ready = [] }
            return state.ready
        }
        while !batch.isEmpty {
            for report in batch { emit(report) }
            batch = state.withLock { state in
                defer { state.ready = [] }
                if state.ready.isEmpty { state.draining = false }
                return state.ready
            }
        }
    }

    /// What was handed on, and what finished after a gap left by cancelled cases (never handed
    /// on), with its report index.
    func collected() -> (emitted: [CaseReport], late: [(index: Int, report: CaseReport)]) {
        state.withLock { state in
            (state.emitted, state.finished.keys.sorted().map { ($0, state.finished[$0]!) })
        }
    }
}
