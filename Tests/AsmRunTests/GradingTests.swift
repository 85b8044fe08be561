import Foundation
import Support
import Testing

/// Grading with the built binary: a reference folder of expectations with points, four
/// submissions, the per-submission summary, Gradescope's results.json and the JSON scores.
@Suite(.tags(.integration), .needsTools)
struct GradingTests {
    /// Exits with its number of arguments.
    static let count = "global _start\n_start:\n    mov rdi, [rsp]\n    dec rdi\n    mov eax, 60\n    syscall\n"

    static var runner: String { Fixture.runner }

    /// `ref/` with hello (2 points) and count (1 + 2 points); alice is right, bob's count is
    /// off by one, carol's hello does not assemble (and her count is `Count.ASM`), dave
    /// handed in a `.s` file only.
    static func classroom() throws -> String {
        let root = try Fixture.temporaryDirectory()
        try Fixture.write(Fixture.hello, to: root + "/ref/hello.asm")
        try Fixture.write("[case default]\npoints: 2\nstdout:\n| hello\nstatus: exit 0\n", to: root + "/ref/hello.expect")
        try Fixture.write(
            "[case none]\nstatus: exit 0\n\n[case two]\n# worth 2 points\npoints: 2\nargs: a b\nstatus: exit 2\n",
            to: root + "/ref/count.expect")
        try Fixture.write(Fixture.hello, to: root + "/subs/alice/hello.asm")
        try Fixture.write(count, to: root + "/subs/alice/count.asm")
        try Fixture.write(Fixture.hello, to: root + "/subs/bob/hello.asm")
        try Fixture.write(count.replacingOccurrences(of: "    dec rdi\n", with: ""), to: root + "/subs/bob/count.asm")
        try Fixture.write("global _start\n_start:\n    movx eax, 1\n", to: root + "/subs/carol/hello.asm")
        try Fixture.write(count, to: root + "/subs/carol/Count.ASM")
        try Fixture.write("nop\n", to: root + "/subs/dave/hello.s")
        return root
    }

    @Test func aReferenceScoresEverySubmissionOnOneLine() throws {
        let root = try Self.classroom()
        defer { Files.removeTree(root) }
        let subs = ["subs/alice", "subs/bob", "subs/carol", "subs/dave"]
        let result = try Fixture.asmrun(
            ["test"] + subs + ["--reference", "ref", "--runner", Self.runner, "--gradescope", "results.json", "--json", "report.json"],
            in: root)
        #expect(result.status == .exited(1), "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                """
                scores:
                  subs/alice  5/5
                  subs/bob    2/5  (count.asm 0/3)
                  subs/carol  3/5  (hello.asm 0/2)
                  subs/dave   0/5  (count.asm 0/3, hello.asm 0/2)

                """), "\(result.stdout)")
        // dave handed in no program at all: one line says so, not one per case.
        #expect(result.stderr.contains("asmrun: subs/dave: holds no programs"), "\(result.stderr)")
        #expect(result.stderr.contains("1 file skipped: hello.s (-v says why): it scores 0"), "\(result.stderr)")
        #expect(!result.stdout.contains("ERROR subs/dave/"))
        try Fixture.write(Fixture.hello, to: root + "/subs/erin/hello.asm")
        let annotated = try Fixture.asmrun(
            ["test", "subs/erin", "--reference", "ref", "--runner", Self.runner], in: root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.stdout.contains("ERROR subs/erin/count.asm:two [\(Self.runner)]: missing: subs/erin has no such program"))
        #expect(
            annotated.stdout.contains("::error file=ref/count.expect,line=4,title=subs/erin/count.asm%3Atwo"),
            "a missing program is annotated at the reference's case: \(annotated.stdout)")
        #expect(result.stdout.contains("PASS  subs/carol/Count.ASM:two"), "a name in another case finds its expectations")
        #expect(result.stdout.hasSuffix("6 passed, 6 failed\n"))
        let report = try Fixture.json(root + "/report.json")
        let scores = try #require(report["scores"] as? [String: Any])
        #expect(scores["score"] as? Double == 10 && scores["max_score"] as? Double == 20)
        let paths = try #require(scores["paths"] as? [[String: Any]])
        #expect(paths.map { $0["path"] as? String } == subs)
        #expect(paths.map { $0["score"] as? Double } == [5, 2, 3, 0])
    }

    /// The schema of https://gradescope-autograders.readthedocs.io/en/latest/specs/: `score`,
    /// `execution_time`, `output`, and `tests[]` of `name`, `score`, `max_score`, `status`
    /// (`passed` | `failed`) and `output`.
    /// `asmrun test * --reference ref` names the reference too: it is left out with a note, not
    /// graded against itself (which refused its own files as links out of it).
    @Test func theReferenceAmongThePathsIsLeftOut() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        let graded = try room.grade(["alice"], ["ref", "./ref/count.asm"])
        #expect(graded.status == .exited(0), "\(graded)")
        #expect(graded.lines(containing: "ref: the reference folder (or in it): left out").count == 1, "\(graded)")
        #expect(graded.lines(containing: "./ref/count.asm: the reference folder (or in it): left out").count == 1, "\(graded)")
        #expect(graded.score("alice").map { [$0.score, $0.max] } == [3, 3], "\(graded)")
        #expect(graded.lines(containing: "is a link to").isEmpty, "\(graded)")
    }

    @Test func theGradescopeResultsFollowItsSchema() throws {
        let root = try Self.classroom()
        defer { Files.removeTree(root) }
        let result = try Fixture.asmrun(
            ["test", "subs/bob", "--reference", "ref", "--runner", Self.runner, "--gradescope", "out/results.json"], in: root)
        #expect(result.status == .exited(2), "a report that cannot be written is a configuration error: \(result.stderr)")
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        let graded = try Fixture.asmrun(
            ["test", "subs/bob", "--reference", "ref", "--runner", Self.runner, "--gradescope", "out/results.json"], in: root)
        #expect(graded.status == .exited(1))
        let document = try Fixture.json(root + "/out/results.json")
        #expect(Set(document.keys) == ["score", "execution_time", "output", "tests"])
        let tests = try #require(document["tests"] as? [[String: Any]])
        for test in tests {
            #expect(Set(test.keys) == ["name", "score", "max_score", "status", "output"], "\(test)")
            #expect(test["name"] is String && test["output"] is String)
            let score = try #require(test["score"] as? Double)
            let maxScore = try #require(test["max_score"] as? Double)
            #expect(score >= 0 && score <= maxScore)
            #expect(["passed", "failed"].contains(test["status"] as? String))
            #expect((test["status"] as? String == "passed") == (score == maxScore))
        }
        #expect(tests.map { $0["name"] as? String } == ["count.asm:none", "count.asm:two", "hello.asm:default"])
        #expect(tests.map { $0["max_score"] as? Double } == [1, 2, 2])
        #expect(document["score"] as? Double == tests.reduce(0) { $0 + ($1["score"] as! Double) })
        #expect(document["score"] as? Double == 2)
        #expect(document["execution_time"] is Int)
        #expect(
            (tests[1]["output"] as? String) == "your program ended with exit 3, but exit 2 was expected\narguments: a b\n",
            "the student's feedback: \(tests[1])")
        #expect(tests[2]["output"] as? String == "passed\n")
        #expect((document["output"] as? String)?.hasPrefix("asmrun: 2/5 points; 1 passed, 2 failed") == true)
    }

    @Test func badGradingInputIsOneLineNamingTheFix() throws {
        let root = try Self.classroom()
        defer { Files.removeTree(root) }
        let missing = try Fixture.asmrun(["test", "subs/alice", "--reference", "nowhere"], in: root)
        #expect(missing.status == .exited(2))
        #expect(missing.stderr == "asmrun: nowhere: does not exist; --reference takes the folder that holds the .expect files\n")
        let update = try Fixture.asmrun(["test", "subs/alice", "--reference", "ref", "--update"], in: root)
        #expect(update.status == .exited(2))
        #expect(update.stderr.hasPrefix("asmrun: --update with --reference would record a submission's output as the reference"))
        for (points, line) in [("-1", 2), ("1e9", 2), ("nan", 2), ("two", 2)] {
            try Fixture.write("[case default]\npoints: \(points)\nstatus: exit 0\n", to: root + "/ref/hello.expect")
            let bad = try Fixture.asmrun(["test", "subs/alice", "--reference", "ref", "--runner", Self.runner], in: root)
            #expect(bad.stdout.contains("ref/hello.expect:\(line): points must be a number from 0 to 1000, not `\(points)`"), "\(bad)")
            #expect(bad.status == .exited(1))
        }
    }

    @Test func pointsAndScoresWithoutAReference() throws {
        let root = try Self.classroom()
        defer { Files.removeTree(root) }
        try Fixture.write("[case default]\npoints: 0.5\nstdout:\n| hello\n", to: root + "/subs/alice/hello.expect")
        let result = try Fixture.asmrun(["test", "subs/alice/hello.asm", "--runner", Self.runner], in: root)
        #expect(result.status == .exited(0), "\(result)")
        #expect(result.stdout.contains("scores:\n  subs/alice/hello.asm  0.50/0.50\n"), "points in a case print the score")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: root + "/subs/alice/count.expect")
        let plain = try Fixture.asmrun(["test", "subs/alice/count.asm", "--runner", Self.runner], in: root)
        #expect(plain.status == .exited(0), "\(plain)")
        #expect(!plain.stdout.contains("scores:"), "no points, one path, no reference: no scores")
    }

    @Test func everyPathGivenYieldsProgramsOrAnError() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try Fixture.write(Self.count, to: root + "/subs/upper/COUNT.ASM")
        try Fixture.write(Self.count, to: root + "/subs/nasm/count.nasm")
        try Fixture.write("nop\n", to: root + "/subs/gas/count.s")
        try Fixture.write("int helper(void) { return 1; }\n", to: root + "/subs/gas/helper.c")
        try FileManager.default.createDirectory(atPath: root + "/subs/empty", withIntermediateDirectories: true)
        let subs = ["subs/upper", "subs/nasm", "subs/gas", "subs/empty"]
        let result = try Fixture.asmrun(["test"] + subs + ["--runner", Self.runner], in: root)
        #expect(result.status == .exited(1), "\(result)")
        #expect(result.stdout.contains("subs/upper/COUNT.ASM:default") && result.stdout.contains("subs/nasm/count.nasm:default"))
        #expect(
            result.stderr.contains(
                "asmrun: subs/gas: holds no programs (no .asm or .nasm file, no folder with a C main or FOLDER.expect); 2 files skipped: count.s, helper.c (-v says why); name the folder that holds the sources, or rename them to .asm\n"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "asmrun: subs/empty: holds no programs (no .asm or .nasm file, no folder with a C main or FOLDER.expect); name the folder"))
        #expect(result.stderr.contains("note: 2 files skipped, not programs (-v lists them and why)\n"))
        #expect(result.stderr.contains("2 paths hold no programs (named above)\n"))
        #expect(result.stdout.contains("  subs/gas    0/0\n"), "an empty submission still gets its line: \(result.stdout)")
        // A path given twice, or inside another given, is searched once: one program, one score.
        let twice = try Fixture.asmrun(["test", "subs/upper", "subs/upper/", "subs/upper/COUNT.ASM", "--runner", Self.runner], in: root)
        #expect(twice.status == .exited(1), "no expectations yet: \(twice)")
        #expect(twice.stdout.hasSuffix("0 passed, 1 failed\n") && !twice.stderr.contains("holds no programs"), "\(twice)")
        let verbose = try Fixture.asmrun(["test", "subs/gas", "-v"], in: root)
        #expect(verbose.status == .exited(2), "the only path given holds nothing: a usage error")
        #expect(verbose.stderr.contains("note: skipped subs/gas/count.s: a .s file may be GNU as"))
        #expect(verbose.stderr.hasSuffix("(-v says why); name the folder that holds the sources, or rename them to .asm\n"))
    }
}
