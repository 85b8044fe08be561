import Compare
import Processes
import Run
import Suite
import Support

/// The JSON report (`--json`): schema `asmrun-report/2`, documented in Documentation/testing.md.
package enum JSONReport {
    /// `results` are `Entry` values, or (`asmrun report merge`) the entries of shard reports as
    /// they were read.
    struct Document<Result: Encodable>: Encodable {
        var schema = "asmrun-report/2"
        var complete: Bool
        var durationSeconds: Double
        var summary: Summary
        var scores: ScoreSummary
        var run: Run?
        var results: [Result]
    }

    /// Counts of results; `failed`, `errors` and `timeouts` are apart (the console's
    /// "N failed" is their sum), and `not_run` counts the results a stopped run never got to.
    struct Summary: Codable {
        var passed, failed, skipped, errors, timeouts, expectedFailures, divergences, interrupted, flaky, notRun, skippedFiles: Int
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
        var crash: Crash?
        var crashNote: String?
        /// What the ABI checks found (a failed case run again under the debugger).
        var abiChecks: [String]?
        /// The case's `visibility:` when it is not `visible`.
        var visibility: String?
        /// `--retries`: how many times the case ran under this runner, when more than once.
        var attempts: Int?
        /// `--retries`: the attempts that failed besides this one (`Attempt`), in order.
        var failedAttempts: [Attempt]?
    }

    /// A crash report: addresses and register values as `0x…` strings (JSON numbers lose
    /// 64-bit precision in most readers).
    struct Crash: Codable {
        struct Frame: Codable {
            var function: String
            var file: String?
            var line: Int?
        }

        var signal: String
        var file: String?
        var line: Int?
        var sourceLine: String?
        var pastEndOfCode: Bool
        var address: String?
        var access: String?
        var mapping: String?
        var instruction: String?
        var registers: [String: String]
        var frames: [Frame]
        var calledFunction: String?
        var hints: [String]

        init(_ report: CrashReport) {
            signal = Signal.name(of: report.signal)
            file = report.location?.path
            line = report.location?.line
            sourceLine = report.sourceLine
            pastEndOfCode = report.ranPastEnd
            address = report.address.map(Self.hex)
            access = report.access
            mapping = report.mapping
            instruction = report.instruction
            registers = Dictionary(report.registers.map { ($0.name, Self.hex($0.value)) }, uniquingKeysWith: { $1 })
            frames = report.frames.map { Frame(function: $0.function, file: $0.location?.path, line: $0.location?.line) }
            calledFunction = report.calledFunction
            hints = report.hints
        }

        static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
    }

    /// Output kept per stream in the report, as exercism's runner does.
    static let outputExcerpt = 500

    /// The report of a run; `expected` is the number of results a complete run has,
    /// `skippedFiles` the files discovery did not take as programs.
    package static func render(_ outcome: SuiteOutcome, seconds: Double, scores: Scores, expected: Int, skippedFiles: Int, run: Run? = nil)
        throws
        -> String
    {
        var tally = Tally()
        outcome.reports.forEach { tally.add($0) }
        let entries = outcome.reports.flatMap { report in report.results.map { entry(report, $0) } }
        let document = Document(
            complete: outcome.complete, durationSeconds: seconds,
            summary: Summary(tally, notRun: max(0, expected - tally.results), skippedFiles: skippedFiles),
            scores: ScoreSummary(
                score: scores.score, maxScore: scores.maxScore,
                paths: scores.roots.map { root in
                    ScoreSummary.Path(
                        path: root.path, score: root.score, maxScore: root.maxScore,
                        programs: root.programs.map { ScoreSummary.Program(program: $0.name, score: $0.score, maxScore: $0.maxScore) })
                }),
            run: run, results: entries)
        return try JSONText.render(document) + "\n"
    }

    /// At most `outputExcerpt` characters of `text`.
    static func excerpt(_ text: TextLines) -> String {
        let full = String(decoding: text.bytes, as: UTF8.self)
        return full.count > outputExcerpt ? String(full.prefix(outputExcerpt)) + "…" : full
    }
}

extension JSONReport.Summary {
    /// The counts of `tally`; `failed` without the errors and timeouts it includes.
    init(_ tally: Tally, notRun: Int, skippedFiles: Int) {
        self.init(
            passed: tally.passed, failed: tally.failed - tally.errors - tally.timeouts, skipped: tally.skipped, errors: tally.errors,
            timeouts: tally.timeouts, expectedFailures: tally.expectedFailures, divergences: tally.divergences,
            interrupted: tally.interrupted, flaky: tally.flaky, notRun: notRun, skippedFiles: skippedFiles)
    }
}
