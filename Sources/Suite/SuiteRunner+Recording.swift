import Compare
import Support

extension SuiteRunner {
    /// `--update`, once every case ran: writes each fully run program's recordings, then hands
    /// every held case on in report order, saying what was really recorded. Folders are written
    /// in parallel, the files of one folder under one hold of its lock. After an interrupt nothing
    /// is written: an interrupted run never records anything.
    func commitRecordings() -> [CaseReport] {
        let finished = state.withLock { state in
            programs.indices.filter { state.programRemaining[$0] == 0 && !slotRanges[$0].isEmpty }
        }
        let pool = WorkPool(workers: configuration.jobs)
        let byFolder = Dictionary(grouping: finished) { ExpectationRecorder.folder(for: programs[$0]) }
        for (folder, indices) in byFolder {
            pool.submit { [self] in commit(indices, in: folder) }
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

    /// Records the programs whose files are in `folder`, holding its lock.
    private func commit(_ indices: [Int], in folder: String) {
        guard !isInterrupted else { return }
        do {
            try FolderLock.withLock(folder) { for index in indices { commit(index) } }
        } catch {
            let reason = "\(error)"
            revise(indices.filter { index in state.withLock { !$0.committed.contains(index) } }) {
                Judge.notRecorded($0, because: reason, failing: true)
            }
            state.withLock { $0.committed.formUnion(indices) }
        }
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
            if let path = outcome.written { state.withLock { if !$0.updatedFiles.contains(path) { $0.updatedFiles.append(path) } } }
            for remark in outcome.remarks { note("warning: \(remark)") }
            guard !outcome.skipped.isEmpty || !outcome.passedOver.isEmpty else { return }
            revise([index]) { result, caseName in
                if let reason = outcome.skipped[caseName] { return Judge.notRecorded(result, because: reason, failing: true) }
                if let reason = outcome.passedOver[caseName] { return Judge.notRecorded(result, because: reason, failing: false) }
                return result
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
