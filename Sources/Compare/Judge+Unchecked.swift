extension Judge {
    /// The most lines of an unchecked stream a failure shows.
    static let uncheckedLines = 40

    /// What a failing case printed on the streams it does not check (`stdout: any`): a test
    /// driver's own report is the reason its status differs, so it is shown after the diffs, as
    /// `.expect` lines (`| text`, `~ escaped`), at most `uncheckedLines` of each stream.
    static func unchecked(
        _ observation: Observation, stdout: TextLines, stderr: TextLines
    ) -> [(stream: String, text: String)] {
        var shown: [(stream: String, text: String)] = []
        for (name, expected, actual) in [("stdout", stdout, observation.stdout), ("stderr", stderr, observation.stderr)]
        where expected == .anything && !actual.lines.isEmpty {
            var text = actual.lines.prefix(uncheckedLines).map { line in
                TextLines.isPlain(line) ? "| " + String(decoding: line, as: UTF8.self) : "~ " + TextLines.escape(line)
            }.joined(separator: "\n")
            text += "\n"
            if actual.lines.count > uncheckedLines { text += "… \(actual.lines.count - uncheckedLines) more lines\n" }
            shown.append(("\(name) (not checked; what it printed)", text))
        }
        return shown
    }
}
