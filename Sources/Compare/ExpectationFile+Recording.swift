extension ExpectationFile {
    /// Records observations of one case, runner by runner (the first runner is the baseline):
    /// a field that still matches is kept (holes survive), a runner that has its own expectation
    /// gets it updated, the baseline updates the default, and other runners get an override only
    /// where they differ from the default.
    package mutating func record(caseNamed name: String, observations: [(runner: String, observation: Observation)]) {
        if !cases.contains(where: { $0.name == name }) { cases.append(TestCase(name: name)) }
        let index = cases.firstIndex { $0.name == name }!
        cases[index].record(observations)
    }
}

extension TestCase {
    mutating func record(_ observations: [(runner: String, observation: Observation)]) {
        guard let baseline = observations.first?.runner else { return }
        let recordedBefore = isRecorded
        recordField(\.stdout, observations, baseline, recordedBefore) { Pattern($0).matches($1) }
        recordField(\.stderr, observations, baseline, recordedBefore) { Pattern($0).matches($1) }
        recordStatus(observations, baseline, recordedBefore)
        recordFiles(observations)
        overrides = overrides.filter { !$0.value.isEmpty }
    }

    /// The baseline's files become the default (one whose expectation still matches keeps its
    /// holes) and files it no longer writes are dropped; another runner gets an override for a
    /// file only where it differs. Nothing changes when files were not collected.
    private mutating func recordFiles(_ observations: [(runner: String, observation: Observation)]) {
        guard let baseline = observations.first?.observation.files else { return }
        let previous = expected.files
        expected.files = baseline.reduce(into: [:]) { files, file in
            let kept = previous[file.key].flatMap { Pattern($0).matches(file.value) ? $0 : nil }
            files[file.key] = kept ?? file.value
        }
        for (runner, observation) in observations.dropFirst() {
            guard let theirs = observation.files else { continue }
            var differing: [String: TextLines] = [:]
            for (name, actual) in theirs where !(expected.files[name].map { Pattern($0).matches(actual) } ?? false) {
                differing[name] = actual
            }
            overrides[runner, default: Expected()].files = differing
        }
    }

    private mutating func recordField(
        _ field: WritableKeyPath<Expected, TextLines?>,
        _ observations: [(runner: String, observation: Observation)], _ baseline: String,
        _ recordedBefore: Bool, matches: (TextLines, TextLines) -> Bool
    ) {
        let observed: (Observation) -> TextLines = { field == \.stdout ? $0.stdout : $0.stderr }
        let empty = TextLines(lines: [])
        for (runner, observation) in observations {
            let actual = observed(observation)
            let current = overrides[runner]?[keyPath: field] ?? expected[keyPath: field] ?? empty
            if recordedBefore && matches(current, actual) { continue }
            if overrides[runner]?[keyPath: field] != nil {
                overrides[runner]![keyPath: field] = actual
            } else if runner == baseline {
                expected[keyPath: field] = actual
            } else if !matches(expected[keyPath: field] ?? empty, actual) {
                overrides[runner, default: Expected()][keyPath: field] = actual
            }
        }
        for (runner, override) in overrides {
            if let value = override[keyPath: field], matches(expected[keyPath: field] ?? empty, value) {
                overrides[runner]![keyPath: field] = nil
            }
        }
    }

    /// A status that still accepts what the program did is kept (`any`, a set); one that no
    /// longer does becomes exactly what it did. A case recorded without a status keeps its
    /// status unchecked; a case recorded for the first time gets the baseline's.
    private mutating func recordStatus(
        _ observations: [(runner: String, observation: Observation)], _ baseline: String, _ recordedBefore: Bool
    ) {
        for (runner, observation) in observations {
            let actual = observation.status
            if let override = overrides[runner]?.status {
                if !override.accepts(actual) { overrides[runner]!.status = ExpectedStatus(actual) }
            } else if runner == baseline {
                if !(expected.status?.accepts(actual) ?? recordedBefore) { expected.status = ExpectedStatus(actual) }
            } else if let status = expected.status, !status.accepts(actual) {
                overrides[runner, default: Expected()].status = ExpectedStatus(actual)
            }
        }
        for (runner, override) in overrides where override.status != nil && override.status == expected.status {
            overrides[runner]!.status = nil
        }
    }
}
