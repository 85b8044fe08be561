/// Describes how runners disagree about one case, when that matters: they produced different
/// results and at least one of them failed. Each other runner is compared with the first.
package enum Divergence {
    package static func describe(_ results: [RunnerResult]) -> String? {
        let observed = results.filter { $0.observation != nil }
        guard observed.count >= 2, observed.contains(where: { !$0.isSuccess && $0.status != .skip && $0.status != .flaky }),
            let baseline = observed.first, let base = baseline.observation
        else { return nil }
        var parts: [String] = []
        for other in observed.dropFirst() {
            guard let theirs = other.observation, theirs != base else { continue }
            var lines = ["\(baseline.runner) and \(other.runner) differ:"]
            let labels = (baseline.runner, other.runner)
            if base.stdout != theirs.stdout {
                lines.append("stdout:\n" + UnifiedDiff.make(expected: base.stdout, actual: theirs.stdout, labels: labels))
            }
            if base.stderr != theirs.stderr {
                lines.append("stderr:\n" + UnifiedDiff.make(expected: base.stderr, actual: theirs.stderr, labels: labels))
            }
            if base.status != theirs.status {
                lines.append("status: \(baseline.runner) \(base.status.summary), \(other.runner) \(theirs.status.summary)\n")
            }
            parts.append(lines.joined(separator: "\n"))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}
