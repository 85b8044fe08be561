import Report
import Suite
import Support
import Synchronization

extension TestSession {
    /// What accepting cases recorded: each case's line, the files written and the warnings
    /// `--update` gives (runners that disagree, holes that are whole lines).
    package struct Acceptance: Sendable {
        /// Each case asked for, by id: `recorded …` or why nothing was written.
        package var results: [String: AcceptedCase] = [:]
        package var updatedFiles: [String] = []
        package var warnings: [String] = []
        /// An interrupt ended the recording run: nothing of it was written.
        package var interrupted = false
    }

    /// One accepted case: whether its new result was written, and what `--update` said of it.
    package struct AcceptedCase: Sendable {
        package var recorded: Bool
        package var message: String
    }

    /// The cases of a failing run `asmrun test --review` accepts: exactly what
    /// `asmrun test PROGRAM --update --filter ID` would record for them, with this run's options.
    /// The cases run again as `--update` runs them (twice when new or changed, to find holes),
    /// are merged into their files under their folders' locks and written atomically; an
    /// interrupt writes nothing. Throws a usage or setup error (nothing was written).
    package func accept(_ reports: [CaseReport]) throws -> Acceptance {
        guard !reports.isEmpty else { return Acceptance() }
        let warnings = Mutex<[String]>([])
        let outcome = try TestSession(plan: recordingPlan(for: reports), context: context).run { event in
            if case .remark(let text) = event, text.hasPrefix("warning: ") { warnings.withLock { $0.append(text) } }
        }
        var acceptance = Acceptance()
        guard let outcome, !outcome.interrupted else {
            acceptance.interrupted = true
            return acceptance
        }
        acceptance.updatedFiles = outcome.suite.updatedFiles
        acceptance.warnings = warnings.withLock { $0 } + outcome.suite.holeWarnings
        let ran = Dictionary(outcome.suite.reports.map { ($0.id, $0) }) { first, _ in first }
        for report in reports {
            acceptance.results[report.id] = Self.accepted(ran[report.id])
        }
        return acceptance
    }

    /// This run's plan, recording only `reports`' cases (their programs' paths, each id matched
    /// whole) and writing no report files.
    func recordingPlan(for reports: [CaseReport]) -> TestPlan {
        var recording = plan
        recording.review = false
        recording.update = true
        recording.list = false
        recording.failFast = false
        (recording.retries, recording.allowFlaky) = (0, false)  // as --update: what differs between runs becomes holes
        recording.shard = nil
        recording.balancePath = nil
        (recording.junitPath, recording.jsonPath, recording.gradescopePath) = (nil, nil, nil)
        (recording.csvPath, recording.reportDirectory) = (nil, nil)
        var paths: [String] = []
        for report in reports where !paths.contains(report.program) { paths.append(report.program) }
        recording.paths = paths
        recording.filter = "^(?:" + reports.map { AcceptCommand.literal($0.id) }.joined(separator: "|") + ")$"
        return recording
    }

    /// What the recording run did with one case.
    private static func accepted(_ report: CaseReport?) -> AcceptedCase {
        guard let report else { return AcceptedCase(recorded: false, message: "not found again: it was removed or renamed") }
        if let failed = report.results.first(where: { $0.status != .pass && $0.status != .skip }) {
            return AcceptedCase(recorded: false, message: "[\(failed.runner)] \(failed.message)")
        }
        let recorded = report.results.first { $0.message.hasPrefix("recorded") }
        guard let recorded else { return AcceptedCase(recorded: false, message: "nothing to record: it passes now") }
        return AcceptedCase(recorded: true, message: recorded.message)
    }
}
