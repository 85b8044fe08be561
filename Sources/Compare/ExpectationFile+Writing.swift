import Support

extension ExpectationFile {
    /// The file's text: header, then each case with inputs, default results and runner overrides.
    package func serialized() -> String {
        var lines = header.isEmpty ? Self.defaultHeader : header
        for testCase in cases {
            lines.append("")
            lines.append("[case \(testCase.name)]")
            if !testCase.arguments.isEmpty {
                lines.append("args: " + testCase.arguments.map(ShellWords.quote).joined(separator: " "))
            }
            lines += testCase.environment.map { "env: \($0)" }
            if !testCase.stdin.lines.isEmpty { lines += Self.block("stdin", testCase.stdin) }
            for input in testCase.inputs { lines += Self.block("input \(input.name)", input.content) }
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
        for name in expected.files.keys.sorted() { lines += block("file \(name)" + suffix, expected.files[name]!) }
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
