extension TestCase {
    /// What `--update` should say out loud about recording this case over `old` (`nil`: the
    /// case is new): a crash or a timeout recorded as the expected status, and runner-specific
    /// fields written because runners disagree. `baseline` is the runner the defaults are from.
    package func recordingRemarks(since old: TestCase?, baseline: String) -> [(runner: String, text: String)] {
        var remarks: [(runner: String, text: String)] = []
        if let remark = Self.statusRemark(expected.status, was: old?.expected.status) {
            remarks.append((baseline, remark))
        }
        for runner in overrides.keys.sorted() {
            let override = overrides[runner]!
            let before = old?.overrides[runner]
            if let remark = Self.statusRemark(override.status, was: before?.status) { remarks.append((runner, remark)) }
            var fields: [String] = []
            if override.stdout != nil && override.stdout != before?.stdout { fields.append("stdout @\(runner)") }
            if override.stderr != nil && override.stderr != before?.stderr { fields.append("stderr @\(runner)") }
            for (name, content) in override.files.sorted(by: { $0.key < $1.key }) where before?.files[name] != content {
                fields.append("file \(name) @\(runner)")
            }
            if override.status != nil && override.status != before?.status { fields.append("status @\(runner)") }
            if !fields.isEmpty {
                remarks.append(
                    (runner, "\(runner) and \(baseline) disagree: recorded \(fields.joined(separator: ", ")); check which is right"))
            }
        }
        return remarks
    }

    /// `recorded a crash (SIGSEGV) as expected` when `status` newly says so.
    private static func statusRemark(_ status: ExpectedStatus?, was old: ExpectedStatus?) -> String? {
        guard let status, status != old, let single = status.single else { return nil }
        switch single {
        case .signaled: return "recorded a crash (\(single.summary.dropFirst("signal ".count))) as expected"
        case .timedOut: return "recorded a timeout as expected"
        case .exited: return nil
        }
    }
}
