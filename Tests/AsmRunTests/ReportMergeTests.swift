import Foundation
import Glibc
import Support
import Testing

/// `asmrun report merge`: the reports of a sharded run's jobs, made one, are the report of the
/// unsharded run; reports that are not the shards of one run are refused with one line.
@Suite(.tags(.integration), .needsTools)
struct ReportMergeTests {
    /// Nine programs, the seventh failing, run whole and in three shards, with their reports.
    static func sharded(in directory: String) throws -> [String] {
        try CITests.programs(9, in: directory)
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/asm/p7.expect")
        let whole = try Fixture.asmrun(["test", "asm", "--json", "whole.json"], in: directory)
        #expect(whole.status == .exited(1), "\(whole)")
        var failing = 0
        let names = try (1...3).map { shard in
            let name = "shard-\(shard).json"
            let run = try Fixture.asmrun(["test", "asm", "--shard", "\(shard)/3", "--json", name, "-j", "\(shard)"], in: directory)
            #expect(run.status == .exited(0) || run.status == .exited(1), "\(run)")
            if run.status == .exited(1) { failing += 1 }
            return name
        }
        #expect(failing == 1, "the failing program is in exactly one shard")
        return names
    }

    static func document(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// `id [runner] status` of every result, in report order.
    static func verdicts(_ document: [String: Any]) -> [String] {
        (document["results"] as? [[String: Any]] ?? []).map { result in
            "\(result["id"] ?? "?") [\(result["runner"] ?? "?")] \(result["status"] ?? "?")"
        }
    }

    @Test func threeShardsMergeIntoTheUnshardedReport() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let shards = try Self.sharded(in: directory)
        let merged = try Fixture.asmrun(
            ["report", "merge"] + shards + ["--json", "merged.json", "--junit", "merged.xml", "--summary", "summary.md"], in: directory)
        #expect(merged.status == .exited(1), "one case failed: the merged run fails as the whole run did\n\(merged)")
        #expect(merged.stdout.contains("asm/p7.asm:default"), "the failure is printed\n\(merged.stdout)")
        #expect(!merged.stdout.contains("asm/p3.asm:default"), "passes are counted, not printed\n\(merged.stdout)")
        #expect(merged.stdout.hasSuffix("8 passed, 1 failed\n"), "\(merged.stdout)")
        let whole = try Self.document(directory + "/whole.json")
        let combined = try Self.document(directory + "/merged.json")
        #expect(Self.verdicts(combined) == Self.verdicts(whole))
        #expect(Self.verdicts(whole).count == 9)
        #expect((combined["summary"] as? [String: Int]) == (whole["summary"] as? [String: Int]))
        #expect(combined["complete"] as? Bool == true)
        let junit = try String(contentsOfFile: directory + "/merged.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"9\" failures=\"1\""), "\(junit)")
        let summary = try String(contentsOfFile: directory + "/summary.md", encoding: .utf8)
        #expect(summary.hasPrefix("### asmrun test: 8 passed, 1 failed\n"), "\(summary)")
    }

    @Test func aMissingShardMakesTheRunIncomplete() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let shards = try Self.sharded(in: directory)
        // Whichever shard holds the failure, the run without shard 3 is incomplete: it fails.
        let merged = try Fixture.asmrun(["report", "merge", shards[0], shards[1], "--json", "merged.json"], in: directory)
        #expect(merged.status == .exited(1), "\(merged)")
        #expect(merged.stdout.contains("run incomplete: not every case ran: shard 3/3 missing"), "\(merged.stdout)")
        #expect(try Self.document(directory + "/merged.json")["complete"] as? Bool == false)
    }

    @Test func reportsOfDifferentRunsAreRefused() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let shards = try Self.sharded(in: directory)
        // Shard 2 of another run: a different timeout judges differently.
        let other = try Fixture.asmrun(["test", "asm", "--shard", "2/3", "--timeout", "5", "--json", "other.json"], in: directory)
        #expect(other.status == .exited(0) || other.status == .exited(1), "\(other)")
        let refusals: [([String], String)] = [
            ([shards[0], "other.json"], "other.json: is a report of another run than shard-1.json"),
            ([shards[0], shards[0]], "shard-1.json: is shard 1/3, as shard-1.json is"),
            ([shards[0], "whole.json"], "whole.json: is a report of another run than shard-1.json"),
            (["old.json"], "old.json: names no run (`run.id`)"),
            (["nothing.json"], "nothing.json: "),
        ]
        try Fixture.write("{\"schema\": \"asmrun-report/2\"", to: directory + "/broken.json")
        try Fixture.write("{\"schema\": \"asmrun-report/2\", \"complete\": true, \"results\": []}", to: directory + "/old.json")
        for (files, line) in refusals + [(["broken.json"], "broken.json: is not JSON")] {
            let merged = try Fixture.asmrun(["report", "merge"] + files + ["--json", "merged.json"], in: directory)
            #expect(merged.status == .exited(2), "\(files): \(merged)")
            #expect(
                merged.stderr.split(separator: "\n").count == 1 && merged.stderr.hasPrefix("asmrun: " + line), "\(files): \(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/merged.json"), "nothing is written for a refused merge")
        }
    }

    @Test func aReportCommandWithoutMergeOrReportsIsOneLine() throws {
        let other = try Fixture.asmrun(["report", "join", "a.json"])
        #expect(other.status == .exited(2))
        #expect(other.stderr == "asmrun: `asmrun report` takes `merge`, not `join`; see `asmrun report --help`\n")
        let none = try Fixture.asmrun(["report", "merge"])
        #expect(none.status == .exited(2))
        #expect(none.stderr == "asmrun: report merge needs the JSON reports to merge; asmrun report merge shard-1.json shard-2.json\n")
        let help = try Fixture.asmrun(["report", "--help"])
        #expect(help.status == .exited(0) && help.stdout.hasPrefix("asmrun report merge —"))
    }
}
