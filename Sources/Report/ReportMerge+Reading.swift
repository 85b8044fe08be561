import Compare
import Suite
import Support

/// One shard's `--json` report as `asmrun report merge` reads it: its run, counts and scores,
/// and its results both as written (to copy) and as cases (to count, print and render).
struct ShardReport {
    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// One case: its results as written and as the renderers take them.
    struct Case {
        var program: String
        var report: CaseReport
        var entries: [JSONValue]
    }

    let path: String
    let run: JSONReport.Run
    let shardIndex: Int?
    let shardCount: Int?
    let complete: Bool
    let seconds: Double
    let notRun: Int
    let skippedFiles: Int
    let scores: JSONReport.ScoreSummary
    let cases: [Case]

    /// `program:case [runner]` of every result, to find a result two reports hold.
    var resultKeys: [String] { cases.flatMap { item in item.report.results.map { "\(item.report.id) [\($0.runner)]" } } }

    init(_ path: String, _ document: JSONValue) throws {
        self.path = path
        guard case .string("asmrun-report/2")? = document["schema"] else { throw Problem("is not an `asmrun-report/2` report") }
        guard case .string(let id)? = document["run"]?["id"] else {
            throw Problem("names no run (`run.id`): it was written by an asmrun older than `report merge`")
        }
        var shard: String?
        if case .string(let text)? = document["run"]?["shard"] { shard = text }
        run = JSONReport.Run(id: id, shard: shard)
        if let shard {
            let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...Shard.maximumCount).contains(count),
                (1...count).contains(index)
            else { throw Problem("gives the shard as `\(shard.displayEscaped)`, not K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount)") }
            (shardIndex, shardCount) = (index, count)
        } else {
            (shardIndex, shardCount) = (nil, nil)
        }
        guard case .bool(let complete)? = document["complete"] else { throw Problem("has no `complete`") }
        self.complete = complete
        seconds = try Self.number(document["duration_seconds"], "duration_seconds")
        notRun = Int(try Self.number(document["summary"]?["not_run"], "summary.not_run"))
        skippedFiles = Int(try Self.number(document["summary"]?["skipped_files"], "summary.skipped_files"))
        scores = try Self.scores(document["scores"])
        guard case .array(let results)? = document["results"] else { throw Problem("has no `results` array") }
        var cases: [Case] = []
        for (index, entry) in results.enumerated() {
            let (program, caseName, result, report) = try Self.result(entry, number: index + 1)
            if let last = cases.last, last.program == program, last.report.caseName == caseName {
                cases[cases.count - 1].report.results.append(result)
                cases[cases.count - 1].entries.append(entry)
            } else {
                var first = report
                first.results = [result]
                cases.append(Case(program: program, report: first, entries: [entry]))
            }
        }
        self.cases = cases
    }

    private static func number(_ value: JSONValue?, _ key: String) throws -> Double {
        guard case .number(let number)? = value, number >= 0, number < 1e12 else { throw Problem("has no number `\(key)` (0 or more)") }
        return number
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func scores(_ value: JSONValue?) throws -> JSONReport.ScoreSummary {
        guard case .array(let paths)? = value?["paths"] else { throw Problem("has no `scores.paths` array") }
        return JSONReport.ScoreSummary(
            score: try number(value?["score"], "scores.score"), maxScore: try number(value?["max_score"], "scores.max_score"),
            paths: try paths.map { path in
                guard case .array(let programs)? = path["programs"], let name = string(path["path"]) else {
                    throw Problem("has a `scores.paths` entry without `path` and `programs`")
                }
                return JSONReport.ScoreSummary.Path(
                    path: name, score: try number(path["score"], "score"), maxScore: try number(path["max_score"], "max_score"),
                    programs: try programs.map { program in
                        guard let name = string(program["program"]) else { throw Problem("has a scored program without a name") }
                        return JSONReport.ScoreSummary.Program(
                            program: name, score: try number(program["score"], "score"),
                            maxScore: try number(program["max_score"], "max_score"))
                    })
            })
    }

    /// One entry of `results`: its program, case, result and the case's report fields.
    private static func result(_ entry: JSONValue, number: Int) throws -> (String, String, RunnerResult, CaseReport) {
        guard let program = string(entry["program"]), let caseName = string(entry["case"]), let runner = string(entry["runner"]),
            let statusText = string(entry["status"]), let status = CaseStatus(rawValue: statusText)
        else { throw Problem("has a result (number \(number)) without `program`, `case`, `runner` and a known `status`") }
        var result = try Self.outcome(entry, runner: runner, status: status)
        result.buildRemarks = string(entry["build_output"]) ?? ""
        if case .array(let attempts)? = entry["failed_attempts"] {
            result.failedAttempts = try attempts.map { attempt in
                guard let text = string(attempt["status"]), let status = CaseStatus(rawValue: text) else {
                    throw Problem("has a failed attempt (of result number \(number)) without a known `status`")
                }
                return try Self.outcome(attempt, runner: runner, status: status)
            }
        }
        var report = CaseReport(program: program, caseName: caseName, results: [])
        report.divergence = string(entry["divergence"])
        report.buildDuration = try Self.number(entry["build_seconds"], "build_seconds")
        if let visibility = string(entry["visibility"]) {
            guard let known = Visibility(rawValue: visibility) else {
                throw Problem("has a result with visibility `\(visibility.displayEscaped)`")
            }
            report.visibility = known
        }
        return (program, caseName, result, report)
    }

    /// What one run of a case did, as a result or a failed attempt gives it.
    private static func outcome(_ entry: JSONValue, runner: String, status: CaseStatus) throws -> RunnerResult {
        var result = RunnerResult(runner: runner, status: status, message: string(entry["message"]) ?? "")
        result.duration = try Self.number(entry["duration_seconds"], "duration_seconds")
        if case .object(let diffs)? = entry["diffs"] {
            let order = ["stdout", "stderr", "status"]
            let streams = diffs.keys.sorted { (order.firstIndex(of: $0) ?? 3, $0) < (order.firstIndex(of: $1) ?? 3, $1) }
            result.diffs = streams.compactMap { stream in string(diffs[stream]).map { (stream, $0) } }
        }
        result.detail = string(entry["detail"]) ?? ""
        result.crashNote = string(entry["crash_note"]) ?? crashLine(entry["crash"])
        if case .array(let findings)? = entry["abi_checks"] { result.abiFindings = findings.compactMap { string($0) } }
        return result
    }

    /// A crash as one line (the shard's report holds its details): `SIGSEGV at hello.asm:7: mov [0], eax`.
    private static func crashLine(_ crash: JSONValue?) -> String? {
        guard let crash, let signal = string(crash["signal"]) else { return nil }
        var line = "killed by \(signal)"
        if let file = string(crash["file"]), case .number(let number)? = crash["line"] { line += " at \(file):\(Int(number))" }
        if let source = string(crash["source_line"]) { line += ": " + source }
        return line
    }
}
