extension ExpectationFile {
    /// The file's text: header, then each case with inputs, default results and runner overrides.
    public func serialized() -> String {
        var lines = header.isEmpty ? Self.defaultHeader : header
        for testCase in cases {
            lines.append("")
            lines.append("[case \(testCase.name)]")
            if !testCase.arguments.isEmpty {
                lines.append("args: " + testCase.arguments.map(ShellWords.quote).joined(separator: " "))
            }
            lines += testCase.environment.map { "env: \($0)" }
            if !testCase.stdin.lines.isEmpty { lines += Self.block("stdin", testCase.stdin) }
            lines += Self.fields(testCase.expected, runner: nil)
            for runner in testCase.overrides.keys.sorted() {
                lines += Self.fields(testCase.overrides[runner]!, runner: runner)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fields(_ expected: Expected, runner: String?) -> [String] {
        let suffix = runner.map { " @\($0)" } ?? ""
        var lines: [String] = []
        // Defaults omit empty output (absent means empty); overrides must say it.
        if let stdout = expected.stdout, runner != nil || !stdout.lines.isEmpty {
            lines += block("stdout" + suffix, stdout)
        }
        if let stderr = expected.stderr, runner != nil || !stderr.lines.isEmpty {
            lines += block("stderr" + suffix, stderr)
        }
        if let status = expected.status { lines.append("status\(suffix): \(status.summary)") }
        return lines
    }

    private static func block(_ label: String, _ text: TextLines) -> [String] {
        var lines = ["\(label):"]
        for line in text.lines {
            if TextLines.isPlain(line) && line.last != 0x20 && line.last != 0x09 {
                lines.append(line.isEmpty ? "|" : "| " + String(decoding: line, as: UTF8.self))
            } else {
                lines.append("~ " + escapeTrailingBlanks(TextLines.escape(line)))
            }
        }
        if !text.endsWithNewline && !text.lines.isEmpty { lines.append("\\ no newline at end") }
        return lines
    }

    /// Editors strip trailing blanks; escaped lines spell them out.
    private static func escapeTrailingBlanks(_ text: String) -> String {
        var body = text
        var tail = ""
        while let last = body.last, last == " " {
            body.removeLast()
            tail = "\\x20" + tail
        }
        return body + tail
    }
}

extension ExpectationFile {
    /// Records observations of one case, runner by runner (the first runner is the baseline):
    /// a field that still matches is kept (holes survive), a runner that has its own expectation
    /// gets it updated, the baseline updates the default, and other runners get an override only
    /// where they differ from the default.
    public mutating func record(caseNamed name: String, observations: [(runner: String, observation: Observation)]) {
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
        recordStatus(observations, baseline)
        overrides = overrides.filter { !$0.value.isEmpty }
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

    private mutating func recordStatus(_ observations: [(runner: String, observation: Observation)], _ baseline: String) {
        for (runner, observation) in observations {
            let actual = observation.status
            if let override = overrides[runner]?.status {
                if override != actual { overrides[runner]!.status = actual }
            } else if runner == baseline {
                expected.status = actual
            } else if (expected.status ?? .exited(0)) != actual {
                overrides[runner, default: Expected()].status = actual
            }
        }
        if expected.status == nil { expected.status = observations.first?.observation.status }
        for (runner, override) in overrides where override.status == expected.status {
            overrides[runner]!.status = nil
        }
    }
}
