import Support

/// `--gradescope PATH`: the `results.json` Gradescope's autograder harness reads
/// (`/autograder/results/results.json`): the total `score`, `execution_time`, an `output` for
/// the whole submission, and one test per case with `name`, `score`, `max_score`,
/// `status` (`passed` or `failed`), `output` (`StudentFeedback`: what the student's program did
/// and what was expected) and, unless it is `visible`, the case's `visibility`.
package enum GradescopeReport {
    struct Document: Encodable {
        var score: Double
        var executionTime: Int
        var output: String
        var tests: [Test]
    }

    struct Test: Encodable {
        var name: String
        var score: Double
        var maxScore: Double
        var status: String
        var output: String
        /// Gradescope's `visibility`, when the case is not `visible` (its default).
        var visibility: String?
    }

    /// Characters of output kept per test (Gradescope shows it to the student).
    static let outputLimit = 8000

    /// The document; `remarks` are lines for the submission's output (a submission that held no
    /// program, an incomplete run), `reference` the reference folder, whose paths no student
    /// reads.
    package static func render(_ scores: Scores, tally: Tally, seconds: Double, remarks: [String], reference: String? = nil) throws
        -> String
    {
        var tests: [Test] = []
        var skipped = 0
        for root in scores.roots {
            let scrubber = PathScrubber(root: root.path, reference: reference)
            for testCase in root.programs.flatMap(\.cases) {
                guard testCase.outcome != .skipped else {
                    skipped += 1
                    continue
                }
                tests.append(
                    Test(
                        name: testCase.name, score: testCase.score, maxScore: testCase.maxScore,
                        status: testCase.outcome == .passed ? "passed" : "failed",
                        output: cut(StudentFeedback.text(testCase, scrubber: scrubber)),
                        visibility: testCase.visibility == .visible ? nil : testCase.visibility.rawValue))
            }
        }
        var summary = ["asmrun: \(Scores.format(scores.score))/\(Scores.format(scores.maxScore)) points; \(tally.summaryLine)"]
        if skipped > 0 { summary.append("\(skipped) case\(skipped == 1 ? "" : "s") skipped under every runner, not scored") }
        let document = Document(
            score: scores.score, executionTime: Int(seconds.rounded(.up)), output: (summary + remarks).joined(separator: "\n"),
            tests: tests)
        return try JSONText.render(document) + "\n"
    }

    /// At most `outputLimit` characters.
    private static func cut(_ text: String) -> String {
        text.count > outputLimit ? String(text.prefix(outputLimit)) + "\n… (cut)" : text
    }
}
