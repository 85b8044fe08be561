import Support

/// `--gradescope PATH`: the `results.json` Gradescope's autograder harness reads
/// (`/autograder/results/results.json`): the total `score`, `execution_time`, an `output` for
/// the whole submission, and one test per case with `name`, `score`, `max_score`,
/// `status` (`passed` or `failed`) and `output` (what went wrong, diffs included).
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

    /// The document; `remarks` are lines for the submission's output (paths that held no
    /// program, an incomplete run).
    package static func render(_ scores: Scores, tally: Tally, seconds: Double, remarks: [String]) throws -> String {
        let scored = scores.cases.filter { $0.outcome != .skipped }
        let skipped = scores.cases.count - scored.count
        var summary = ["asmrun: \(Scores.format(scores.score))/\(Scores.format(scores.maxScore)) points; \(tally.summaryLine)"]
        if skipped > 0 { summary.append("\(skipped) case\(skipped == 1 ? "" : "s") skipped under every runner, not scored") }
        let document = Document(
            score: scores.score, executionTime: Int(seconds.rounded(.up)),
            output: (summary + remarks).joined(separator: "\n"),
            tests: scored.map { testCase in
                Test(
                    name: testCase.name, score: testCase.score, maxScore: testCase.maxScore,
                    status: testCase.outcome == .passed ? "passed" : "failed",
                    output: testCase.visibility == .hidden ? hiddenOutput(testCase) : output(testCase),
                    visibility: testCase.visibility == .visible ? nil : testCase.visibility.rawValue)
            })
        return try JSONText.render(document) + "\n"
    }

    /// A hidden case tells the student its score only.
    private static func hiddenOutput(_ testCase: Scores.Case) -> String {
        "hidden test: " + (testCase.outcome == .passed ? "passed" : "not passed")
    }

    /// What the student reads under the test: the failure of each group of runners, or how it
    /// passed.
    private static func output(_ testCase: Scores.Case) -> String {
        guard let report = testCase.report else {
            return "not run: the run stopped before this case (--fail-fast or an interrupt)"
        }
        let groups = ResultGroup.groups(of: report).filter { $0.result.status != .skip }
        if testCase.outcome == .passed {
            return "passed (\(groups.flatMap(\.runners).joined(separator: ", ")))"
        }
        var text = groups.filter(\.result.isFailure).map { group in
            "[\(group.runnerList)] \(group.result.status.rawValue): " + group.result.failureText
        }.joined(separator: "\n")
        if let divergence = report.divergence { text += "\n" + divergence }
        return text.count > outputLimit ? String(text.prefix(outputLimit)) + "\n… (cut; the full text is in asmrun's output)" : text
    }
}
