import Compare
import Support

/// `--update`: writes what a program's cases did into its `.expect`, once the run is over.
///
/// The file is merged, not overwritten: under a lock on its folder (`FolderLock`, taken by the
/// caller for all the files of a folder at once) the file as it
/// is on disk *now* is read, each recorded case is recorded into it, and the result replaces it
/// atomically. So two concurrent `--update --filter` runs on different cases of one file both
/// land, and a case added or edited by hand meanwhile is kept. A case whose inputs changed on
/// disk while it ran, or that was deleted there, is not recorded (and says so). Cases that
/// errored, were interrupted, exceeded the output limit or are expected failures are left as
/// they were; a program none of whose cases can be recorded (one that did not build) gets no
/// file at all.
struct ExpectationRecorder: Sendable {
    /// What recording one program did.
    struct Outcome {
        /// The file, when it was replaced.
        var written: String?
        /// Cases that could not be recorded, with the reason: a failure of the run.
        var skipped: [String: String] = [:]
        /// Cases left as they were because a runner could not run them (its error says why).
        var passedOver: [String: String] = [:]
        /// What to say out loud about what was recorded: crashes recorded as expected,
        /// runners that disagree.
        var remarks: [String] = []
    }

    /// The folder whose lock (`FolderLock`) recording into `program`'s file needs: the one the
    /// file really is in, past any symlinks.
    static func folder(for program: TestProgram) -> String {
        let path = (try? AtomicFile.resolve(program.expectationPath)) ?? program.expectationPath
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Records `cases` (each with its results in runner order) into the program's file; the
    /// caller holds the lock on `folder(for: program)`.
    func record(_ program: TestProgram, _ cases: [(testCase: TestCase, results: [RunnerResult])]) throws -> Outcome {
        guard program.problem == nil, let source = program.program else { return Outcome() }
        var passedOver: [String: String] = [:]
        let recordable = cases.compactMap { entry -> (TestCase, [(runner: String, observation: Observation)])? in
            if let failed = entry.results.first(where: { $0.status == .error || $0.status == .interrupted }) {
                passedOver[entry.testCase.name] = "the \(failed.runner) runner did not finish it"
                return nil
            }
            let observations = entry.results.compactMap { result -> (runner: String, observation: Observation)? in
                guard let observation = result.observation, source.settings.expectedFailure(for: result.runner) == nil,
                    !result.outputLimitExceeded
                else { return nil }
                return (result.runner, observation)
            }
            return observations.isEmpty ? nil : (entry.testCase, observations)
        }
        var outcome = Outcome()
        if let block = program.document, let (ran, observations) = recordable.first {
            outcome = try recordDocument(program, block, ran, observations)
        } else if !recordable.isEmpty {
            outcome = try merge(recordable, of: program)
        }
        outcome.passedOver = passedOver
        return outcome
    }

    /// Reads the file as it is now, records into it and replaces it when that changes it.
    private func merge(
        _ recordable: [(TestCase, [(runner: String, observation: Observation)])], of program: TestProgram
    ) throws -> Outcome {
        let path = program.expectationPath
        let snapshot = program.expectations
        let current: ExpectationFile?
        do {
            current = try ExpectationFile.load(path)
        } catch let error as FileError {
            throw FileError(
                path: path, line: error.location?.line, problem: "changed during the run and no longer reads: \(error.problem)",
                fix: "fix it, then run `asmrun test --update` again")
        }
        var file = current ?? ExpectationFile()
        var outcome = Outcome()
        for (ran, observations) in recordable {
            let onDisk = file.cases.first { $0.name == ran.name }
            if let onDisk, !onDisk.hasSameInputs(as: ran) {
                outcome.skipped[ran.name] = "its inputs changed in \(FileLocation(path)) while it ran; run `asmrun test --update` again"
                continue
            }
            if onDisk == nil && snapshot.cases.contains(where: { $0.name == ran.name }) {
                outcome.skipped[ran.name] = "it was removed from \(FileLocation(path)) while it ran"
                continue
            }
            file.record(caseNamed: ran.name, observations: observations)
            let new = file.cases.first { $0.name == ran.name }
            outcome.remarks += (new?.recordingRemarks(since: onDisk, baseline: observations[0].runner) ?? []).map {
                "\(program.id(of: ran.name)) [\($0.runner)]: \($0.text)"
            }
        }
        // Unchanged content is never rewritten, whatever its layout (CRLF, spacing, comments).
        guard outcome.skipped.count < recordable.count, file != current else { return outcome }
        try file.save(to: path)
        outcome.written = path
        return outcome
    }
}
