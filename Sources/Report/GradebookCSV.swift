import Support

/// `--csv FILE`: one row per submission (the path given) with its score, its maximum and the
/// points of each case, one column per case (`count.asm:two`, named after the reference's
/// program, so every submission's case lands in the same column). Fields are quoted as RFC 4180
/// says, and a name a spreadsheet would take for a formula is prefixed with `'`.
package enum GradebookCSV {
    /// The file's text.
    package static func render(_ scores: Scores) -> String {
        var columns: [String] = []
        var known = Set<String>()
        for testCase in scores.cases where known.insert(testCase.column).inserted { columns.append(testCase.column) }
        var rows = [(["submission", "score", "max_score"] + columns).map(text)]
        for root in scores.roots {
            var earned: [String: Double] = [:]
            for testCase in root.programs.flatMap(\.cases) where testCase.outcome != .skipped { earned[testCase.column] = testCase.score }
            let points = columns.map { earned[$0].map(Scores.format) ?? "" }
            rows.append([text(root.path), Scores.format(root.score), Scores.format(root.maxScore)] + points)
        }
        return rows.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// A text field: escaped for display, guarded against formulas, quoted when it must be.
    static func text(_ value: String) -> String {
        var field = value.displayEscaped
        if let first = field.first, "=+-@".contains(first) { field = "'" + field }
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field != field.trimmingBlanks()
        else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }
}
