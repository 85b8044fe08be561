import Foundation
import Glibc
import Support
import Testing

/// `asmrun test` in CI, with the built binary: shards, annotations, the step summary, one diff
/// for runners that agree, `--fail-fast`, the JSON summary and `-v` on a cache hit.
@Suite(.tags(.integration), .needsTools)
struct CITests {
    static var runner: String { Fixture.runner }
    /// Two runners that agree on everything here.
    static var twoRunners: String { Fixture.nativeHost ? "native,qemu" : "qemu,qemu-x86_64" }
    static var twoNames: String { twoRunners.replacingOccurrences(of: ",", with: ", ") }

    static func exiting(_ code: Int) -> String { "global _start\n_start:\n    mov eax, 60\n    mov edi, \(code)\n    syscall\n" }

    /// `p1.asm` … `pN.asm` exiting 1 … N, each with its expectation.
    static func programs(_ count: Int, in directory: String) throws {
        for index in 1...count {
            try Fixture.write(exiting(index), to: directory + "/asm/p\(index).asm")
            try Fixture.write("[case default]\nstatus: exit \(index)\n", to: directory + "/asm/p\(index).expect")
        }
    }

    /// Program id → shard, from `--list` of every shard.
    static func assignment(_ count: Int, in directory: String, extra: [String] = []) throws -> [String: Int] {
        var shards: [String: Int] = [:]
        for shard in 1...count {
            let listed = try Fixture.asmrun(["test", "asm", "--list", "--shard", "\(shard)/\(count)"] + extra, in: directory)
            #expect(listed.status == .exited(0), "\(listed)")
            for line in listed.stdout.split(separator: "\n") {
                let id = String(line.split(separator: " ")[0])
                #expect(shards[id] == nil, "\(id) is in two shards")
                shards[id] = shard
            }
        }
        return shards
    }

    @Test func addingAProgramMovesNoOtherToAnotherShard() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Self.programs(12, in: directory)
        let before = try Self.assignment(4, in: directory)
        #expect(before.count == 12, "every program in exactly one shard")
        try Fixture.write(Self.exiting(13), to: directory + "/asm/p13.asm")
        try Fixture.write(Self.exiting(0), to: directory + "/asm/a0.asm")
        let after = try Self.assignment(4, in: directory)
        #expect(after.count == 14)
        for (id, shard) in before { #expect(after[id] == shard, "\(id) moved from shard \(shard) to \(after[id] ?? 0)") }
        // The key is the path below the path given: another checkout folder gives the same slices.
        let elsewhere = try Fixture.temporaryDirectory()
        defer { Files.removeTree(elsewhere) }
        try Self.programs(12, in: elsewhere)
        #expect(try Self.assignment(4, in: elsewhere) == before)
    }

    @Test func aShardWithoutProgramsPassesWithANote() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Self.programs(6, in: directory)
        let taken = Set(try Self.assignment(10, in: directory).values)
        let empty = try #require((1...10).first { !taken.contains($0) }, "6 programs leave 4 of 10 shards empty")
        let result = try Fixture.asmrun(
            ["test", "asm", "--shard", "\(empty)/10", "--runner", Self.runner, "--json", "r.json", "--junit", "r.xml", "-v", "--no-cache"],
            in: directory)
        #expect(result.status == .exited(0), "\(result)")
        #expect(!result.stderr.contains("nasm"), "no program of another shard is built ahead: \(result.stderr)")
        #expect(
            result.stderr.contains(
                "note: shard \(empty)/10 holds none of the 6 programs (the matrix is wider than the suite): nothing to run\n"))
        #expect(result.stdout.hasSuffix("0 passed, 0 failed\n"))
        #expect((try Fixture.json(directory + "/r.json"))["complete"] as? Bool == true)
        for bad in ["0/3", "11/10", "3", "1/0", "1/1001", "a/b", "-1/3", "1/3/4", "99999999999999999999/3"] {
            let refused = try Fixture.asmrun(["test", "asm", "--shard", bad], in: directory)
            #expect(refused.status == .exited(2), "\(bad)")
            #expect(
                refused.stderr
                    == "asmrun: --shard takes K/N with 1 ≤ K ≤ N ≤ 1000, not `\(bad)`; for a matrix of 4 jobs: --shard 1/4 … --shard 4/4\n")
        }
    }

    @Test func balancedShardsFollowTheTimingsOfAReport() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Self.programs(6, in: directory)
        // p1 takes as long as all the others together: balanced, it has a shard to itself.
        var results: [[String: Any]] = []
        for index in 1...6 {
            results.append(["program": "asm/p\(index).asm", "duration_seconds": index == 1 ? 5.0 : 1.0, "build_seconds": 0.0])
        }
        try JSONSerialization.data(withJSONObject: ["results": results]).write(to: URL(fileURLWithPath: directory + "/timings.json"))
        let balanced = try Self.assignment(2, in: directory, extra: ["--balance", "timings.json"])
        #expect(balanced.count == 6)
        let first = try #require(balanced["asm/p1.asm:default"])
        #expect(balanced.filter { $0.value == first }.count == 1, "\(balanced)")
        try Fixture.write("{\"results\": [{\"program\": \"asm/p1.asm\", \"duration_seconds\": -3}]}", to: directory + "/bad.json")
        let bad = try Fixture.asmrun(["test", "asm", "--shard", "1/2", "--balance", "bad.json"], in: directory)
        #expect(bad.status == .exited(2))
        #expect(bad.stderr == "asmrun: bad.json: gives asm/p1.asm a duration of -3.0 s; write the report again with `asmrun test --json`\n")
        let alone = try Fixture.asmrun(["test", "asm", "--balance", "timings.json"], in: directory)
        #expect(alone.stderr == "asmrun: --balance deals the programs out to shards, so it needs --shard K/N\n")
    }

    /// Programs that fail in every way an annotation points at: a diff, an unwritten field, a
    /// runner's override, nasm's and the C compiler's errors, a malformed `.expect`, a crash.
    static func annotatedSuite(in directory: String) throws {
        try Fixture.write(Fixture.hello, to: directory + "/asm/hello.asm")
        try Fixture.write(
            "# header\n\n[case fine]\nstatus: exit 0\nstdout:\n| hello\n\n[case wrong]\nstatus: exit 0\nstdout:\n| hullo, 100%\n"
                + "\n[case unwritten]\nstatus: exit 0\n", to: directory + "/asm/hello.expect")
        try Fixture.write(Self.exiting(3), to: directory + "/asm/three.asm")
        try Fixture.write("[case default]\nstatus: exit 3\nstatus @qemu: exit 4\n", to: directory + "/asm/three.expect")
        // nasm warns on line 3 (a label alone) before the error on line 5.
        try Fixture.write("global _start\n_start:\nfoo\n    mov eax, 60\n    movx edi, 1\n", to: directory + "/asm/broken.asm")
        // The C compiler warns on line 1 (file:line:column: warning:) before the error on line 4.
        try Fixture.write("#warning \"first\"\nint main(void) {\n  int x = 1\n  return x;\n}\n", to: directory + "/asm/cmain/driver.c")
        try Fixture.write("global f\nf:\n    ret\n", to: directory + "/asm/cmain/f.asm")
        try Fixture.write(Self.exiting(0), to: directory + "/asm/bad.asm")
        try Fixture.write("[case default]\nstatus: exited 0\n", to: directory + "/asm/bad.expect")
        // A crash on line 3 where the case expects exit 0.
        try Fixture.write("global _start\n_start:\n    mov qword [0], 1\n", to: directory + "/asm/crash.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/asm/crash.expect")
    }

    @Test func annotationsPointAtTheExpectLineAndCarryTheDiff() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Self.annotatedSuite(in: directory)
        let summary = directory + "/summary.md"
        try Fixture.write("earlier step\n", to: summary)
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary]
        let result = try Fixture.asmrun(["test", "asm", "--runner", "qemu"], in: directory, environment: environment)
        #expect(result.status == .exited(1))
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }.map(String.init)
        // Seven failures, and four of them (what the programs did) also on the program's source.
        #expect(annotations.count == 11, "\(result.stdout)")
        #expect(
            annotations.contains {
                $0.hasPrefix("::error file=asm/hello.asm,line=1,title=asm/hello.asm%3Awrong [qemu]::stdout differs%0A")
            }, "\(annotations)")
        #expect(annotations.contains { $0.hasPrefix("::error file=asm/three.asm,line=1,title=asm/three.asm%3Adefault [qemu]::") })
        #expect(annotations.contains { $0.hasPrefix("::error file=asm/crash.asm,line=3,title=asm/crash.asm%3Adefault [qemu]::") })
        #expect(!annotations.contains { $0.hasPrefix("::error file=asm/bad.asm,") }, "a broken .expect is not the program's")
        #expect(
            annotations.contains {
                $0.hasPrefix("::error file=asm/bad.expect,line=2,title=asm/bad.asm%3Adefault [qemu]::asm/bad.expect:2: status must be")
            })
        #expect(
            annotations.contains(
                "::error file=asm/broken.asm,line=5,title=asm/broken.asm%3Adefault [qemu]::assembly failed%0Aasm/broken.asm:3: warning: label alone on a line without a colon might be in error [-w+label-orphan]%0Aasm/broken.asm:5: error: parser: instruction expected"
            ), "\(annotations)")
        #expect(
            annotations.contains {
                $0.hasPrefix("::error file=asm/cmain/driver.c,line=4,title=asm/cmain%3Adefault [qemu]::compilation failed%0A")
            })
        #expect(
            annotations.contains(
                "::error file=asm/hello.expect,line=10,title=asm/hello.asm%3Awrong [qemu]::stdout differs%0Astdout:%0A--- expected%0A+++ actual%0A@@ -1 +1 @@%0A-hullo, 100%25%0A+hello"
            ))
        // A field the case does not write: the annotation points at the case.
        #expect(
            annotations.contains {
                $0.hasPrefix("::error file=asm/hello.expect,line=13,title=asm/hello.asm%3Aunwritten [qemu]::stdout differs%0A")
            })
        #expect(
            annotations.contains(
                "::error file=asm/three.expect,line=3,title=asm/three.asm%3Adefault [qemu]::status differs%0Astatus:%0Aexpected exit 4, got exit 3"
            ))
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(markdown.hasPrefix("earlier step\n### asmrun test: 1 passed, 7 failed\n"), "appended: \(markdown)")
        #expect(markdown.contains("| fail | asm/hello.asm:wrong | qemu | stdout differs |\n"))
        #expect(
            markdown.contains("<details><summary>asm/hello.asm:wrong [qemu]</summary>\n\n```diff\nstdout differs\nstdout:\n--- expected\n"))
    }

    @Test func runnersThatAgreeShowOneDiffNamingThemAll() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Fixture.hello, to: directory + "/hello.asm")
        try Fixture.write("[case default]\nstdout:\n| hullo\nstatus: exit 0\n", to: directory + "/hello.expect")
        let result = try Fixture.asmrun(["test", "hello.asm", "--runner", Self.twoRunners], in: directory)
        #expect(result.status == .exited(1))
        #expect(result.stdout.hasPrefix("FAIL  hello.asm:default [\(Self.twoNames)]: stdout differs\n    stdout:\n"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "+hello").count == 2, "the diff once: \(result.stdout)")
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"), "still counted per runner")
    }

    @Test func failFastShowsTheFailureThatStoppedItAndCountsWhatRan() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Self.programs(8, in: directory)
        try Fixture.write("[case default]\nstatus: exit 9\n", to: directory + "/asm/p5.expect")
        let result = try Fixture.asmrun(
            ["test", "asm", "--fail-fast", "-j", "1", "--runner", Self.twoRunners, "--json", "r.json", "--no-cache"], in: directory)
        #expect(result.status == .exited(1))
        #expect(
            result.stdout.contains("FAIL  asm/p5.asm:default [\(Self.twoRunners.split(separator: ",")[0])]: status differs"),
            "\(result.stdout)")
        let report = try Fixture.json(directory + "/r.json")
        let summary = try #require(report["summary"] as? [String: Int])
        let ran = summary["passed"]! + summary["failed"]!
        #expect(summary["failed"] == 1 && summary["not_run"] == 16 - ran, "\(summary)")
        #expect(
            result.stdout.contains(
                "run incomplete: not every case ran (\(16 - ran) of 16 did not run): stopped by --fail-fast after the first failure\n"))
        #expect(result.stdout.hasSuffix("\(summary["passed"]!) passed, 1 failed\n"))
    }

    @Test func theJSONSummaryKeepsFailuresErrorsAndTimeoutsApart() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.exiting(1), to: directory + "/fail.asm")
        try Fixture.write("[case default]\nstatus: exit 2\n", to: directory + "/fail.expect")
        try Fixture.write("global _start\n_start:\n    movx eax, 1\n", to: directory + "/error.asm")
        try Fixture.write("global _start\n_start:\n    jmp _start\n", to: directory + "/spin.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/spin.expect")
        let result = try Fixture.asmrun(["test", ".", "--timeout", "0.3", "--runner", Self.runner, "--json", "r.json"], in: directory)
        #expect(result.stdout.hasSuffix("0 passed, 3 failed\n"))
        let summary = try #require((try Fixture.json(directory + "/r.json"))["summary"] as? [String: Int])
        #expect(summary["failed"] == 1 && summary["errors"] == 1 && summary["timeouts"] == 1, "\(summary)")
        #expect((try Fixture.json(directory + "/r.json"))["schema"] as? String == "asmrun-report/2")
    }

    @Test func verboseOnACacheHitSaysWhereTheExecutableCameFrom() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.exiting(0), to: directory + "/zero.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/zero.expect")
        let cache = ["--cache-dir", directory + "/cache", "--runner", Self.runner, "-v"]
        let cold = try Fixture.asmrun(["test", "zero.asm"] + cache, in: directory)
        #expect(cold.stderr.contains("+ nasm ") || cold.stderr.contains("nasm -f elf64"), "\(cold.stderr)")
        let warm = try Fixture.asmrun(["test", "zero.asm"] + cache, in: directory)
        let line = try #require(warm.stderr.split(separator: "\n").first { $0.hasPrefix("+ (cached ") }, "\(warm.stderr)")
        #expect(line.wholeMatch(of: /\+ \(cached [0-9a-f]{12}\) zero\.asm: the executable linked earlier from .*/) != nil, "\(line)")
        #expect(!warm.stderr.contains("nasm"), "no tool ran")
    }
}
