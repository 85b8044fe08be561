import Compare
import Suite

extension JSONReport {
    /// `--retries`: one failed attempt of a case, as its result is written, less what the case's
    /// entry says once (its ids, build, divergence and visibility).
    struct Attempt: Codable {
        var status: CaseStatus
        var message: String
        var durationSeconds: Double
        var exit: String?
        var diffs: [String: String]
        var detail: String?
        var stdout: String?
        var stderr: String?
        var crash: Crash?
        var crashNote: String?
        /// The ABI checks' findings of this attempt (each failed attempt is checked again).
        var abiChecks: [String]?

        init(_ result: RunnerResult) {
            status = result.status
            message = result.message
            durationSeconds = result.duration
            exit = result.observation?.status.summary
            diffs = Dictionary(result.diffs.map { ($0.stream, $0.text) }, uniquingKeysWith: { $1 })
            detail = result.detail.isEmpty ? nil : result.detail
            stdout = result.observation.map { excerpt($0.stdout) }
            stderr = result.observation.map { excerpt($0.stderr) }
            crash = result.crash.map(Crash.init)
            crashNote = result.crashNote
            abiChecks = result.abiFindings.isEmpty ? nil : result.abiFindings
        }
    }

    /// The entry of one result of `report`.
    static func entry(_ report: CaseReport, _ result: RunnerResult) -> Entry {
        Entry(
            id: report.id, program: report.program, case: report.caseName, runner: result.runner,
            status: result.status, message: result.message, durationSeconds: result.duration,
            buildSeconds: report.buildDuration, exit: result.observation?.status.summary,
            diffs: Dictionary(result.diffs.map { ($0.stream, $0.text) }, uniquingKeysWith: { $1 }),
            detail: result.detail.isEmpty ? nil : result.detail,
            buildOutput: result.buildRemarks.isEmpty ? nil : result.buildRemarks, divergence: report.divergence,
            stdout: result.observation.map { excerpt($0.stdout) },
            stderr: result.observation.map { excerpt($0.stderr) }, crash: result.crash.map(Crash.init),
            crashNote: result.crashNote, abiChecks: result.abiFindings.isEmpty ? nil : result.abiFindings,
            visibility: report.visibility == .visible ? nil : report.visibility.rawValue,
            attempts: result.attempts > 1 ? result.attempts : nil,
            failedAttempts: result.failedAttempts.isEmpty ? nil : result.failedAttempts.map(Attempt.init))
    }
}
