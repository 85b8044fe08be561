import Compare
import Suite

/// Results of one case that say the same thing under several runners: one failure, its diff
/// printed once, naming every runner that produced it.
struct ResultGroup: Sendable {
    /// The runners, in runner order.
    var runners: [String]
    /// The first runner's result (the others' differ only in runner and timing).
    var result: RunnerResult

    /// `native, qemu`.
    var runnerList: String { runners.joined(separator: ", ") }

    /// The case's results with identical failures merged (in the order of their first runner);
    /// passes, skips and expected failures stay one per runner.
    static func groups(of report: CaseReport) -> [ResultGroup] {
        var groups: [ResultGroup] = []
        for result in report.results {
            if result.isFailure, let index = groups.firstIndex(where: { $0.result.isFailure && $0.result.saysTheSame(as: result) }) {
                groups[index].runners.append(result.runner)
            } else {
                groups.append(ResultGroup(runners: [result.runner], result: result))
            }
        }
        return groups
    }
}

extension RunnerResult {
    /// Failed, errored or timed out.
    var isFailure: Bool { status == .fail || status == .error || status == .timeout }

    /// The same verdict, message, diffs, detail, crash report and number of attempts: printing
    /// both would repeat one text.
    func saysTheSame(as other: RunnerResult) -> Bool {
        status == other.status && message == other.message && detail == other.detail && buildRemarks == other.buildRemarks
            && crash == other.crash && crashNote == other.crashNote && attempts == other.attempts
            && abiFindings == other.abiFindings
            && diffs.count == other.diffs.count
            && zip(diffs, other.diffs).allSatisfy { $0.stream == $1.stream && $0.text == $1.text }
    }
}
