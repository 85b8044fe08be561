import CLI
import Foundation
import Processes
import Session
import Support
import Testing

/// `--retries` with the built binary and a real program that fails the first time it runs and
/// passes after: it creates a mark file (`open` with `O_EXCL`) named by its argument, in a
/// folder the test makes, and passes only when the mark is already there. Deterministic: the
/// first run fails, every later one passes; without `--no-isolation` the folder is read-only to
/// the case and the program fails every time (another message), so nothing passes by accident.
@Suite(.tags(.integration), .needsTools)
struct FlakyTests {
    static var runner: String { Fixture.runner }

    static let once = """
        global _start
        section .data
        first:  db "first run", 10
        again:  db "again", 10
        cannot: db "cannot make the mark", 10
        section .text
        _start:
            mov rdi, [rsp+16]       ; argv[1]: the mark
            mov eax, 2              ; open(mark, O_WRONLY|O_CREAT|O_EXCL, 0644)
            mov esi, 0xc1
            mov edx, 0o644
            syscall
            cmp rax, -17            ; EEXIST: an earlier run made it
            je .again
            test rax, rax
            js .cannot
            lea rsi, [rel first]
            mov edx, 10
            mov edi, 1
            jmp .end
        .again:
            lea rsi, [rel again]
            mov edx, 6
            xor edi, edi
            jmp .end
        .cannot:
            lea rsi, [rel cannot]
            mov edx, 21
            mov edi, 2
        .end:
            push rdi
            mov eax, 1
            mov edi, 1
            syscall
            pop rdi
            mov eax, 60
            syscall

        """

    /// A suite in `root/asm` of `once.asm` (its mark in `marks`, writable by the cases' user) and
    /// `never.asm`, which always exits 1 where 0 is expected.
    static func suite(in root: String, marks: String) throws {
        try Fixture.write(once, to: root + "/asm/once.asm")
        try Fixture.write("[case default]\nargs: \(marks)/mark\nstdout:\n| again\nstatus: exit 0\n", to: root + "/asm/once.expect")
        try Fixture.write(CITests.exiting(1), to: root + "/asm/never.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: root + "/asm/never.expect")
    }

    static func test(_ extra: [String], in root: String, environment: [String: String] = [:]) throws
        -> (stdout: String, stderr: String, status: Termination)
    {
        try Fixture.asmrun(["test", "asm", "--runner", runner, "--no-isolation"] + extra, in: root, environment: environment)
    }

    @Test func aCaseThatPassesOnARetryIsFlakyAndFailsTheRunUnlessAllowed() throws {
        let (root, marks) = (try Fixture.temporaryDirectory(), try Fixture.visibleDirectory())
        defer { Files.removeTree(root); Files.removeTree(marks) }
        chmod(marks, 0o777)
        try Self.suite(in: root, marks: marks)
        let plain = try Self.test(["--filter", "once"], in: root)
        #expect(plain.status == .exited(1) && plain.stdout.contains("FAIL  asm/once.asm:default"), "\(plain)")
        let again = try Self.test(["--filter", "once"], in: root)
        #expect(again.status == .exited(0), "the program passes once its mark is there: \(again)")
        unlink(marks + "/mark")
        let flaky = try Self.test(["--filter", "once", "--retries", "2", "--json", "r.json", "--junit", "r.xml"], in: root)
        #expect(flaky.status == .exited(3), "\(flaky)")
        #expect(
            flaky.stdout.hasPrefix(
                "FLAKY asm/once.asm:default [\(Self.runner)]: passed only on attempt 2; attempt 1: stdout, status differ\n"
                    + "    stdout:\n    --- expected\n    +++ actual\n    @@ -1 +1 @@\n    -again\n    +first run\n"), "\(flaky.stdout)")
        #expect(flaky.stdout.hasSuffix("0 passed, 0 failed, 1 flaky\n"))
        let json = try Fixture.json(root + "/r.json")
        let result = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(result["status"] as? String == "flaky" && result["attempts"] as? Int == 2)
        #expect((result["failed_attempts"] as? [[String: Any]])?.first?["stdout"] as? String == "first run\n")
        let xml = try String(contentsOfFile: root + "/r.xml", encoding: .utf8)
        #expect(xml.contains("<flakyFailure type=\"fail\" message=\"stdout, status differ\">\n        <stackTrace>"), "\(xml)")
        #expect(xml.contains("<system-out>first run\n</system-out>") && !xml.contains("<failure"), "\(xml)")
        unlink(marks + "/mark")
        let allowed = try Self.test(["--filter", "once", "--retries", "1", "--allow-flaky"], in: root)
        #expect(allowed.status == .exited(0) && allowed.stdout.hasPrefix("FLAKY asm/once.asm:default"), "\(allowed)")
    }

    @Test func aCaseThatFailsEveryAttemptFailsWithItsRetries() throws {
        let (root, marks) = (try Fixture.temporaryDirectory(), try Fixture.visibleDirectory())
        defer { Files.removeTree(root); Files.removeTree(marks) }
        chmod(marks, 0o777)
        try Self.suite(in: root, marks: marks)
        let result = try Self.test(["--filter", "never", "--retries", "2", "--junit", "r.xml"], in: root)
        #expect(result.status == .exited(1), "\(result)")
        #expect(result.stdout.hasPrefix("FAIL  asm/never.asm:default [\(Self.runner)]: status differs (failed all 3 attempts)\n"))
        #expect(result.stdout.contains("    attempt 2: fail: status differs\n    attempt 3: fail: status differs\n"))
        let xml = try String(contentsOfFile: root + "/r.xml", encoding: .utf8)
        #expect(xml.contains("<failure type=\"fail\"") && xml.components(separatedBy: "<rerunFailure type=\"fail\"").count == 3, "\(xml)")
    }

    @Test func ciAndTheMergedReportSayFlaky() throws {
        let (root, marks) = (try Fixture.temporaryDirectory(), try Fixture.visibleDirectory())
        defer { Files.removeTree(root); Files.removeTree(marks) }
        chmod(marks, 0o777)
        try Self.suite(in: root, marks: marks)
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": root + "/summary.md"]
        let run = try Self.test(["--filter", "once", "--retries", "1", "--json", "r.json"], in: root, environment: environment)
        #expect(run.status == .exited(3))
        #expect(
            run.stdout.contains(
                "::warning file=asm/once.expect,line=3,title=asm/once.asm%3Adefault [\(Self.runner)] is flaky::passed only on attempt 2"),
            "\(run.stdout)")
        let summary = try String(contentsOfFile: root + "/summary.md", encoding: .utf8)
        #expect(summary.hasPrefix("### asmrun test: 0 passed, 0 failed, 1 flaky\n"), "\(summary)")
        #expect(
            summary.contains(
                "| flaky | asm/once.asm:default | \(Self.runner) | passed only on attempt 2; attempt 1: stdout, status differ |"))
        let merged = try Fixture.asmrun(["report", "merge", "r.json", "--junit", "m.xml"], in: root)
        #expect(merged.status == .exited(3) && merged.stdout.contains("FLAKY asm/once.asm:default"), "\(merged)")
        #expect(try String(contentsOfFile: root + "/m.xml", encoding: .utf8).contains("<flakyFailure type=\"fail\""))
        let allowed = try Fixture.asmrun(["report", "merge", "r.json", "--allow-flaky"], in: root)
        #expect(allowed.status == .exited(0) && allowed.stdout.hasSuffix("0 passed, 0 failed, 1 flaky\n"), "\(allowed)")
    }

    @Test func aGradeIsEarnedOnTheFirstRun() throws {
        let (root, marks) = (try Fixture.temporaryDirectory(), try Fixture.visibleDirectory())
        defer { Files.removeTree(root); Files.removeTree(marks) }
        chmod(marks, 0o777)
        try Fixture.write(Self.once, to: root + "/subs/ann/once.asm")
        try Fixture.write("[case default]\nargs: \(marks)/mark\nstdout:\n| again\nstatus: exit 0\n", to: root + "/ref/once.expect")
        let graded = try Fixture.asmrun(
            [
                "test", "subs/ann", "--reference", "ref", "--runner", Self.runner, "--no-isolation", "--retries", "1", "--gradescope",
                "g.json",
            ],
            in: root)
        #expect(graded.status == .exited(3) && graded.stdout.contains("subs/ann  0/1"), "\(graded)")
        let test = try #require((try Fixture.json(root + "/g.json")["tests"] as? [[String: Any]])?.first)
        #expect(test["status"] as? String == "failed" && test["score"] as? Double == 0)
        let output = test["output"] as? String ?? ""
        #expect(output.hasPrefix("your program passed only when run again (attempt 2): it does not do the same on every run"), "\(output)")
        #expect(output.contains("your program printed:\nfirst run\nbut this was expected:\nagain"), "\(output)")
        let refused = try Fixture.asmrun(["test", "subs/ann", "--reference", "ref", "--retries", "1", "--allow-flaky"], in: root)
        #expect(refused.status == .exited(2) && refused.stderr.hasPrefix("asmrun: --allow-flaky would give points"), "\(refused)")
    }

    @Test(arguments: [
        (["--retries", "11"], "asmrun: --retries takes a number of retries from 0 to 10, not `11`\n"),
        (["--retries", "-1"], "asmrun: --retries takes a number of retries from 0 to 10, not `-1`\n"),
        (["--retries", "2x"], "asmrun: --retries takes a number of retries from 0 to 10, not `2x`\n"),
        (["--allow-flaky"], "asmrun: --allow-flaky needs --retries N: without retries no case is flaky\n"),
    ])
    func badRetriesAreOneLine(arguments: [String], message: String) {
        let result = Fixture.test(arguments + ["asm"])
        #expect(result.status == 2 && result.errors == message && result.output.isEmpty, "\(result)")
    }

    @Test func retriesAreRefusedWithUpdate() throws {
        let error = #expect(throws: UsageError.self) { try TestPlan(parsing: ["--update", "--retries", "1"]) }
        #expect(error?.problem == "--retries with --update would record one run of a program whose runs differ")
        #expect(try TestPlan(parsing: ["--update", "--retries", "0"]).update, "--retries 0 retries nothing")
        #expect(throws: UsageError.self) { try TestPlan(parsing: ["--untrusted", "--retries", "1", "--allow-flaky"]) }
        #expect(try TestPlan(parsing: ["--retries", "10", "--allow-flaky"]).configuration.retries == 10)
    }
}
