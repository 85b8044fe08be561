import Compare
import Support

extension SuiteRunner {
    /// `--update`, once every case ran: writes each fully run program's recordings (on worker
    /// threads; each file under its folder's lock), then hands every held case on in report
    /// order, saying what was really recorded. After an interrupt nothing is written: an
    /// interrupted run never records anything.
    func commitRecordings() -> [CaseReport] {
        let finished = state.withLock { state in
            programs.indices.filter { state.programRemaining[$0] == 0 && !slotRanges[$0].isEmpty }
        }
        let pool = WorkPool(workers: configuration.jobs)
        for index in finished {
            pool.submit { [self] in commit(index) }
        }
        pool.run()
        if isInterrupted {
            let unwritten = state.withLock { state in programs.indices.filter { !state.committed.contains($0) } }
            revise(unwritten) { Judge.notRecorded($0, because: "the run was interrupted", failing: false) }
        }
        let reports = state.withLock { state in state.held.keys.sorted().map { state.held[$0]! } }
        for report in reports { emit(report) }
        return reports
    }

    /// Records one program, unless an interrupt came first; a failure to write turns every case
    /// it meant to record into an error.
    private func commit(_ index: Int) {
        guard !isInterrupted else { return }
        let cases = state.withLock { state in
            slotRanges[index].map { (testCase: state.slots[$0].testCase, results: state.slots[$0].results.compactMap { $0 }) }
        }
        defer { state.withLock { _ = $0.committed.insert(index) } }
        do {
            let outcome = try ExpectationRecorder().record(programs[index], cases)
            if let path = outcome.written { state.withLock { $0.updatedFiles.append(path) } }
            guard !outcome.skipped.isEmpty else { return }
            revise([index]) { result, caseName in
                outcome.skipped[caseName].map { Judge.notRecorded(result, because: $0, failing: true) } ?? result
            }
        } catch {
            let reason = "\(error)"
            revise([index]) { result, _ in Judge.notRecorded(result, because: reason, failing: true) }
        }
    }

    /// Replaces the held results of `indices`' programs with `change(result)`.
    private func revise(_ indices: some Sequence<Int>, _ change: (RunnerResult) -> RunnerResult) {
        revise(indices) { result, _ in change(result) }
    }

    /// Replaces the held results of `indices`' programs with `change(result, caseName)`.
    private func revise(_ indices: some Sequence<Int>, _ change: (RunnerResult, String) -> RunnerResult) {
        state.withLock { state in
            for index in indices {
                for slot in slotRanges[index] {
                    guard var report = state.held[slot] else { continue }
                    report.results = report.results.map { change($0, report.caseName) }
                    state.held[slot] = report
                }
            }
        }
    }
}
