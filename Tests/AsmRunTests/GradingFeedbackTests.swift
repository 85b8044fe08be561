import Foundation
import Support
import Testing

/// What issue 35 measured besides the attacks: submissions as students hand them in, the
/// feedback Gradescope shows them, hidden cases and per-case limits from the reference, a
/// gradebook, and exercises graded on their exit status alone.
@Suite(.tags(.integration), .needsTools)
struct GradingFeedbackTests {
    /// Feedback said `[native] fail`, "record `status: timeout`" and the reference's paths, and
    /// never the case's arguments or input.
    @Test func gradescopeFeedbackIsWrittenForStudents() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.expectations + "\n[case typed]\nstdin:\n| 42\nstatus: exit 0\n", to: "ref/count.expect")
        try room.write(Classroom.count.replacingOccurrences(of: "    dec rdi\n", with: ""), to: "subs/bob/count.asm")
        let bob = try room.grade(["bob"])
        let two = try #require(bob.test("count.asm:two")?["output"] as? String, "\(bob.results)")
        #expect(two.contains("your program ended with exit 3, but exit 2 was expected"), "\(two)")
        #expect(two.contains("arguments: a b"), "\(two)")
        let typed = try #require(bob.test("count.asm:typed")?["output"] as? String)
        #expect(typed.contains("input:\n42\n"), "\(typed)")
        for output in bob.tests.compactMap({ $0["output"] as? String }) {
            #expect(!output.contains("[\(Fixture.runner)]") && !output.contains("ref/") && !output.contains(room.root), "\(output)")
        }
        #expect(bob.stdout.contains("count.asm:two [\(Fixture.runner)]: status differs"), "the console keeps the details")
        try room.write(Classroom.sleepyCount, to: "subs/bob/count.asm")
        let slow = try room.grade(["bob"], ["--timeout", "0.5"])
        let stopped = try #require(slow.test("count.asm:none")?["output"] as? String)
        #expect(stopped.contains("your program ran longer than 0.5 s and was stopped"), "\(stopped)")
        #expect(!stopped.contains("status: timeout") && !stopped.contains("--timeout"))
        try room.write("global _start\n_start:\n    movx eax, 1\n", to: "subs/bob/count.asm")
        let broken = try room.grade(["bob"])
        let built = try #require(broken.test("count.asm:none")?["output"] as? String)
        #expect(built.contains("count.asm:3: error:") && !built.contains(room.root) && !built.contains("subs/bob"), "\(built)")
        #expect(broken.test("count.asm:none")?["status"] as? String == "failed")
    }

    /// No gradebook export: `--csv` and `--report-dir`.
    @Test func aGradebookAndAReportPerSubmission() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write(Classroom.count, to: "subs/alice/count.asm")
        try room.write(Classroom.wrong, to: "subs/smith, \"j\"/count.asm")
        let graded = try room.grade(["alice", "smith, \"j\""], ["--csv", "grades.csv", "--report-dir", "reports"])
        let csv = try String(contentsOfFile: room.root + "/grades.csv", encoding: .utf8)
        #expect(
            csv == """
                submission,score,max_score,count.asm:none,count.asm:two
                subs/alice,3,3,1,2
                "subs/smith, \"\"j\"\"\",0,3,0,0

                """, "\(csv)\n\(graded)")
        let alice = try String(contentsOfFile: room.root + "/reports/alice.md", encoding: .utf8)
        #expect(alice.hasPrefix("# subs/alice: 3/3 points\n"), "\(alice)")
        let smith = try FileManager.default.contentsOfDirectory(atPath: room.root + "/reports").filter { $0 != "alice.md" }
        #expect(smith.count == 1 && smith[0].hasSuffix(".md") && !smith[0].contains("\""), "\(smith)")
    }

    /// A test driver (a C harness, Unity's) prints its own report and exits 0 or not: the case
    /// checks the status alone and shows the output.
    @Test func testDriverExercisesAreGradedOnTheirStatus() throws {
        let room = try Classroom()
        defer { room.remove() }
        try room.write("[case tests]\nstdout: any\nstderr: any\nstatus: exit 0\n", to: "ref/count.expect")
        let report = """
            global _start
            _start:
                mov eax, 1
                mov edi, 1
                lea rsi, [rel text]
                mov edx, 19
                syscall
                mov eax, 60
                mov edi, STATUS
                syscall
            section .data
            text: db "3 Tests 0 Failures", 10

            """
        try room.write(report.replacingOccurrences(of: "STATUS", with: "0"), to: "subs/alice/count.asm")
        try room.write(report.replacingOccurrences(of: "STATUS", with: "1"), to: "subs/bob/count.asm")
        let graded = try room.grade(["alice", "bob"])
        #expect(graded.score("alice")! == (1, 1), "\(graded)")
        #expect(graded.score("bob")! == (0, 1))
        for name in ["alice", "bob"] {
            let output = graded.test("subs/\(name)/count.asm:tests")?["output"] as? String ?? ""
            #expect(output.contains("3 Tests 0 Failures"), "the harness's report is the feedback: \(output)")
        }
    }
}
