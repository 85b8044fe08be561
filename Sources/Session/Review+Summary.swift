import Suite
import Support

extension Review.Outcome {
    /// The review's part of the run's summary (every name escaped): what was accepted and
    /// recorded (or why not), skipped, rejected and not reached, the files written and
    /// `--update`'s warnings.
    package var summaryLines: [String] {
        guard !decisions.isEmpty || !unreviewed.isEmpty else { return ["review: no failing case to review"] }
        let accepted = decisions.filter { $0.decision == .accepted }.map(\.report)
        let skipped = decisions.filter { $0.decision == .skipped }.map(\.report)
        let rejected = decisions.filter { $0.decision == .rejected }.map(\.report)
        var counts = ["\(recorded.count) accepted and recorded"]
        if accepted.count > recorded.count { counts.append("\(accepted.count - recorded.count) accepted but not recorded") }
        counts += ["\(skipped.count) skipped", "\(rejected.count) rejected"]
        if !unreviewed.isEmpty { counts.append("\(unreviewed.count) not reviewed") }
        var lines = ["review: " + counts.joined(separator: ", ")]
        for report in accepted {
            let id = report.id.displayEscaped
            if acceptance.interrupted || failed {
                lines.append("  accepted, not recorded: \(id) (the recording \(failed ? "failed" : "was interrupted"))")
            } else if let result = acceptance.results[report.id] {
                let state = result.recorded ? "accepted" : "accepted, not recorded"
                lines.append("  \(state): \(id) — \(DisplayText.escape(result.message))")
            }
        }
        lines += skipped.map { "  skipped: \($0.id.displayEscaped)" }
        lines += rejected.map { "  rejected: \($0.id.displayEscaped)" }
        lines += unreviewed.map { "  not reviewed: \($0.id.displayEscaped)" }
        lines += acceptance.updatedFiles.map { "updated \($0.displayEscaped)" }
        lines += acceptance.warnings.map(DisplayText.escape)
        if interrupted && accepted.isEmpty { lines.append("review interrupted: nothing was accepted, nothing written") }
        return lines
    }

    /// The failing results of `reports` (the run's) that are still failures: all but those of
    /// the cases recorded.
    package func failuresLeft(in reports: [CaseReport]) -> Int {
        let fixed = Set(recorded.map(\.id))
        return reports.filter { !fixed.contains($0.id) }.reduce(0) { total, report in
            total + report.results.filter { $0.status == .fail || $0.status == .error || $0.status == .timeout }.count
        }
    }
}
