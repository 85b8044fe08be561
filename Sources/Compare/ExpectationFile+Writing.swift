import Support

extension ExpectationFile {
    /// The file's text: header, then each case with inputs, default results and runner
    /// overrides, each comment line before the line it was written before.
    func serialized() -> String {
        var lines = header.isEmpty ? Self.defaultHeader : header
        for testCase in cases {
            var writer = CaseWriter(comments: testCase.comments)
            lines.append("")
            writer.add(CaseComments.caseLine, ["[case \(testCase.name)]"])
            if let points = testCase.points { writer.add("points", ["points: " + Self.number(points)]) }
            if testCase.visibility != .visible { writer.add("visibility", ["visibility: \(testCase.visibility.rawValue)"]) }
            if let timeout = testCase.timeout { writer.add("timeout", ["timeout: " + Self.number(timeout)]) }
            for limit in testCase.limits { writer.add("limit \(limit.name)", ["limit: \(limit.name) \(limit.value)"]) }
            if !testCase.arguments.isEmpty {
                writer.add("args", ["args: " + testCase.arguments.map(ShellWords.quote).joined(separator: " ")])
            }
            for (index, variable) in testCase.environment.enumerated() {
                writer.add(index == 0 ? "env" : "env \(index + 1)", ["env: \(variable)"])
            }
            if !testCase.stdin.lines.isEmpty { writer.add("stdin", Self.block("stdin", testCase.stdin)) }
            for input in testCase.inputs { writer.add("input \(input.name)", Self.block("input \(input.name)", input.content)) }
            Self.fields(testCase.expected, runner: nil, into: &writer)
            for runner in testCase.overrides.keys.sorted() {
                Self.fields(testCase.overrides[runner]!, runner: runner, into: &writer)
            }
            lines += writer.finish()
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2`, `0.5`: points as written by hand.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func fields(_ expected: Expected, runner: String?, into writer: inout CaseWriter) {
        let suffix = runner.map { " @\($0)" } ?? ""
        // Defaults omit empty output (absent means empty); overrides must say it.
        if let stdout = expected.stdout, runner != nil || !stdout.lines.isEmpty {
            writer.add("stdout" + suffix, stdout == .anything ? ["stdout\(suffix): any"] : block("stdout" + suffix, stdout))
        }
        if let stderr = expected.stderr, runner != nil || !stderr.lines.isEmpty {
            writer.add("stderr" + suffix, stderr == .anything ? ["stderr\(suffix): any"] : block("stderr" + suffix, stderr))
        }
        for name in expected.files.keys.sorted() {
            writer.add("file \(name)" + suffix, block("file \(name)" + suffix, expected.files[name]!))
        }
        if let status = expected.status { writer.add("status" + suffix, ["status\(suffix): \(status)"]) }
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

/// The lines of one case, each field preceded by the comments written before it; comments of
/// fields no longer written go to the end of the case.
private struct CaseWriter {
    var comments: CaseComments
    var lines: [String] = []

    mutating func add(_ key: String, _ field: [String]) {
        if let before = comments.before.removeValue(forKey: key) { lines += before }
        lines += field
    }

    mutating func finish() -> [String] {
        let end = comments.before.removeValue(forKey: CaseComments.end) ?? []
        return lines + comments.before.keys.sorted().flatMap { comments.before[$0]! } + end
    }
}
