import Compare
import Suite
import Support

/// `asmrun report merge`: the JSON reports of the shards of one run (`--shard K/N --json F`)
/// made one, as the unsharded run would have reported: every result once, the counts and scores
/// summed, complete only when every shard is there and complete.
package struct MergedReport: Sendable {
    /// Every case of every shard, in the order discovery finds programs.
    package var reports: [CaseReport]
    package var complete: Bool
    /// The longest shard's time: the shards ran side by side.
    package var seconds: Double
    /// Shards that are missing or stopped early, one line each.
    package var remarks: [String]
    /// The combined `--json` document.
    package var json: String

    /// The cases as the console prints them: failures in full, passes only counted.
    package var printed: [CaseReport] {
        reports.map { report in
            var printed = report
            printed.quiet = report.results.allSatisfy(\.isSuccess)
            return printed
        }
    }
}

extension JSONReport {
    /// The run a report belongs to: `id` is the same in every shard of one run (the paths, the
    /// runners and the options that judge, `--shard`'s count included) and differs between runs.
    package struct Run: Codable, Sendable, Equatable {
        package var id: String
        /// `K/N`, for one shard of a sharded run.
        package var shard: String?

        package init(id: String, shard: String?) {
            self.id = id
            self.shard = shard
        }
    }

    /// The combined report of the shards in `files` (path and contents). Reports of different
    /// runs, a shard given twice and a result held by two reports are refused, naming the files.
    package static func merge(_ files: [(path: String, bytes: [UInt8])]) throws -> MergedReport {
        let fix = "give `asmrun report merge` the --json reports of the shards of one `asmrun test --shard K/N` run"
        let shards = try files.map { file in
            do { return try ShardReport(file.path, try JSONValue(parsing: file.bytes)) } catch let error as ShardReport.Problem {
                throw FileError(path: file.path, problem: error.text, fix: fix)
            } catch {
                throw FileError(path: file.path, problem: "is not JSON (\(error))", fix: fix)
            }
        }
        guard let first = shards.first else {
            return MergedReport(reports: [], complete: true, seconds: 0, remarks: [], json: "")
        }
        let missing = try missingShards(shards, fix: fix)
        let complete = missing.isEmpty && shards.allSatisfy(\.complete)
        var remarks = missing.isEmpty ? [] : ["shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) missing"]
        for shard in shards where !shard.complete { remarks.append("\(shard.path.displayEscaped) is a shard that stopped early") }
        let ordered = shards.flatMap(\.cases).enumerated().sorted { left, right in
            left.element.program == right.element.program
                ? left.offset < right.offset : Self.discoveryOrder(left.element.program, right.element.program)
        }.map(\.element)
        let seconds = shards.map(\.seconds).max() ?? 0
        var tally = Tally()
        ordered.forEach { tally.add($0.report) }
        let document = Document(
            complete: complete, durationSeconds: seconds,
            summary: Summary(tally, notRun: shards.reduce(0) { $0 + $1.notRun }, skippedFiles: shards.map(\.skippedFiles).max() ?? 0),
            scores: Self.mergedScores(shards.map(\.scores)), run: Run(id: first.run.id, shard: nil),
            results: ordered.flatMap(\.entries))
        return MergedReport(
            reports: ordered.map(\.report), complete: complete, seconds: seconds, remarks: remarks,
            json: try JSONText.render(document) + "\n")
    }

    /// The shards of the run that are not among `shards` (`3/4`); throws when the reports are not
    /// the shards of one run, or two hold the same shard or result.
    private static func missingShards(_ shards: [ShardReport], fix: String) throws -> [String] {
        guard let first = shards.first else { return [] }
        for shard in shards.dropFirst() where shard.run.id != first.run.id {
            throw FileError(
                path: shard.path, problem: "is a report of another run than \(first.path.displayEscaped)", fix: fix)
        }
        guard let count = first.shardCount else {
            if shards.count > 1 {
                throw FileError(path: shards[1].path, problem: "is a whole run, not a shard", fix: fix)
            }
            return []
        }
        var given: [Int: String] = [:]
        for shard in shards {
            guard let index = shard.shardIndex, shard.shardCount == count else {
                throw FileError(
                    path: shard.path, problem: "is not a shard of \(count) like \(first.path.displayEscaped)", fix: fix)
            }
            if let other = given[index] {
                throw FileError(
                    path: shard.path, problem: "is shard \(index)/\(count), as \(other.displayEscaped) is", fix: fix)
            }
            given[index] = shard.path
        }
        try checkOverlap(shards, fix: fix)
        return (1...count).filter { given[$0] == nil }.map { "\($0)/\(count)" }
    }

    /// Throws when two reports hold the same result.
    private static func checkOverlap(_ shards: [ShardReport], fix: String) throws {
        var owners: [String: String] = [:]
        for shard in shards {
            for key in shard.resultKeys {
                if let other = owners[key] {
                    throw FileError(
                        path: shard.path, problem: "holds \(key.displayEscaped), as \(other.displayEscaped) does", fix: fix)
                }
                owners[key] = shard.path
            }
        }
    }

    /// Discovery walks folders with their entries sorted by name: path components compared one by one.
    static func discoveryOrder(_ left: String, _ right: String) -> Bool {
        let leftParts = left.split(separator: "/", omittingEmptySubsequences: false)
        let rightParts = right.split(separator: "/", omittingEmptySubsequences: false)
        for (a, b) in zip(leftParts, rightParts) where a != b { return a < b }
        return leftParts.count < rightParts.count
    }

    /// The shards' scores summed path by path (each program is in one shard).
    private static func mergedScores(_ scores: [ScoreSummary]) -> ScoreSummary {
        var paths: [ScoreSummary.Path] = []
        for path in scores.flatMap(\.paths) {
            if let index = paths.firstIndex(where: { $0.path == path.path }) {
                paths[index].score += path.score
                paths[index].maxScore += path.maxScore
                paths[index].programs += path.programs
            } else {
                paths.append(path)
            }
        }
        for index in paths.indices { paths[index].programs.sort { discoveryOrder($0.program, $1.program) } }
        return ScoreSummary(score: paths.reduce(0) { $0 + $1.score }, maxScore: paths.reduce(0) { $0 + $1.maxScore }, paths: paths)
    }
}
