import Compare
import FoundationEssentials
import Suite

/// The JSON report (`--json`): schema `asmrun-report/2`, documented in README.md.
package enum JSONReport {
    struct Document: Codable {
        var schema = "asmrun-report/2"
        var complete: Bool
        var durationSeconds: Double
        var summary: Summary
        var scores: ScoreSummary
        var results: [Entry]
    }

    /// Counts of results; `failed`, `errors` and `timeouts` are apart (the console's
    /// "N failed" is their sum), and `not_run` counts the results a stopped run never got to.
    struct Summary: Codable {
        var passed, failed, skipped, errors, timeouts, expectedFailures, divergences, notRun, skippedFiles: Int
    }

    struct ScoreSummary: Codable {
        struct Path: Codable {
            var path: String
            var score, maxScore: Double
            var programs: [Program]
        }

        struct Program: Codable {
            var program: String
            var score, maxScore: Double
        }

        var score, maxScore: Double
        var paths: [Path]
    }

    struct Entry: Codable {
        var id, program, `case`, runner: String
        var status: CaseStatus
        var message: String
        var durationSeconds: Double
        var buildSeconds: Double
        var exit: String?
        var diffs: [String: String]
        var detail: String?
        var buildOutput: String?
        var divergence: String?
        var stdout: String?
        var stderr: String?
    }

    /// Output kept per stream in the report, as exercism's runner does.
    static let outputExcerpt = 500

    /// The report of a run; `expected` is the number of results a complete run has,
    /// `skippedFiles` the files discovery did not take as programs.
    package static func render(_ outcome: SuiteOutcome, seconds: Double, scores: Scores, expected: Int, skippedFiles: Int) throws
        -> String
    {
        var tally = Tally()
        outcome.reports.forEach { tally.add($0) }
        let entries = outcome.reports.flatMap { report in
            report.results.map { result in
                Entry(
                    id: report.id, program: report.program, case: report.caseName, runner: result.runner,
                    status: result.status, message: result.message, durationSeconds: result.duration,
                    buildSeconds: report.buildDuration, exit: result.observation?.status.summary,
                    diffs: Dictionary(result.diffs.map { ($0.stream, $0.text) }, uniquingKeysWith: { $1 }),
                    detail: result.detail.isEmpty ? nil : result.detail,
                    buildOutput: result.buildRemarks.isEmpty ? nil : result.buildRemarks, divergence: report.divergence,
                    stdout: result.observation.map { excerpt($0.stdout) },
                    stderr: result.observation.map { excerpt($0.stderr) })
            }
        }
        let document = Document(
            complete: outcome.complete, durationSeconds: seconds,
            summary: Summary(
                passed: tally.passed, failed: tally.failed - tally.errors - tally.timeouts, skipped: tally.skipped,
                errors: tally.errors, timeouts: tally.timeouts, expectedFailures: tally.expectedFailures,
                divergences: tally.divergences, notRun: max(0, expected - tally.results), skippedFiles: skippedFiles),
            scores: ScoreSummary(
                score: scores.score, maxScore: scores.maxScore,
                paths: scores.roots.map { root in
                    ScoreSummary.Path(
                        path: root.path, score: root.score, maxScore: root.maxScore,
                        programs: root.programs.map { ScoreSummary.Program(program: $0.name, score: $0.score, maxScore: $0.maxScore) })
                }),
            results: entries)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    private static func excerpt(_ text: TextLines) -> String {
        let full = String(decoding: text.bytes, as: UTF8.self)
        return full.count > outputExcerpt ? String(full.prefix(outputExcerpt)) + "…" : full
    }
}
