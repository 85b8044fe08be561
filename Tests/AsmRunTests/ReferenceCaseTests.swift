import Foundation
import Support
import Testing

@testable import Compare

/// What a reference's cases may say about how they are judged: `visibility:` (Gradescope's
/// words), `timeout:` and `limit: NAME VALUE`, over the program's and the command line's.
struct ReferenceCaseTests {
    @Test func judgingFieldsAreReadCheckedAndWrittenBack() throws {
        let text = """
            [case default]
            points: 2
            visibility: after_published
            # a tight one
            timeout: 0.5
            limit: output 4K
            limit: processes 8
            status: exit 0

            """
        let file = try ExpectationFile(parsing: text, path: "p.expect")
        let testCase = try #require(file.cases.first)
        #expect(testCase.visibility == .afterPublished && testCase.timeout == 0.5)
        #expect(testCase.limits == [CaseLimit(name: "output", value: "4K"), CaseLimit(name: "processes", value: "8")])
        let applied = testCase.applyingLimits(to: ResourceLimits(processes: 64, openFiles: 32), outputLimit: 1 << 20)
        #expect(applied.outputLimit == 4096 && applied.resources == ResourceLimits(processes: 8, openFiles: 32))
        #expect(file.serialized() == ExpectationFile.defaultHeader.joined(separator: "\n") + "\n\n" + text)
        for (line, problem) in [
            ("timeout @qemu: 1", "timeout cannot be runner-specific"),
            ("limit: output 1K\nlimit: output 2K", "limit `output` appears twice"),
            ("limit: memory", "`limit memory` needs a value such as 256M"),
            ("visibility: Hidden", "visibility must be visible, hidden, after_due_date or after_published, not `Hidden`"),
        ] {
            do {
                _ = try ExpectationFile(parsing: "[case c]\n\(line)\n", path: "p.expect")
                Issue.record("accepted: \(line)")
            } catch {
                #expect("\(error)".contains(problem), "\(error)")
            }
        }
    }

    /// No hidden cases and no per-case limits could be written in the reference.
    @Test(.tags(.integration), .needsTools)
    func hiddenCasesAndPerCaseLimitsComeFromTheReference() throws {
        let room = try Classroom()
        defer { room.remove() }
        let cases = """
            [case none]
            timeout: 0.5
            status: exit 0

            [case secret]
            visibility: hidden
            args: s3cr3t
            status: exit 7

            [case later]
            visibility: after_due_date
            args: x
            status: exit 1

            """
        try room.write(cases, to: "ref/count.expect")
        try room.write(Classroom.sleepyCount, to: "subs/bob/count.asm")
        let graded = try room.grade(["bob"])
        #expect(graded.test("count.asm:none")?["status"] as? String == "failed", "the case's own timeout: \(graded)")
        #expect(graded.test("count.asm:later")?["status"] as? String == "passed")
        let secret = try #require(graded.test("count.asm:secret"))
        #expect(secret["visibility"] as? String == "hidden" && secret["score"] as? Double == 0)
        let told = secret["output"] as? String ?? "s3cr3t"
        #expect(!told.contains("s3cr3t") && !told.contains("exit 7"), "a hidden case shows its score only: \(secret)")
        #expect(graded.test("count.asm:later")?["visibility"] as? String == "after_due_date")
        #expect(graded.test("count.asm:none")?["visibility"] == nil)
        #expect(graded.stdout.contains("count.asm:secret [\(Fixture.runner)] (hidden): status differs"), "the console keeps it, marked")
        for (line, problem) in [
            ("visibility: secret", "visibility must be visible, hidden, after_due_date or after_published, not `secret`"),
            ("timeout: 0", "timeout must be a number of seconds from 0.001 to 604800, not `0`"),
            ("timeout: 1e9", "timeout must be a number of seconds from 0.001 to 604800, not `1e9`"),
            ("limit: memory 0", "`limit memory 0` is out of range: a size from 1 to 1024G"),
            ("limit: colour 5", "unknown limit `colour` (use memory, file-size, cpu, processes, open-files or output)"),
        ] {
            try room.write("[case none]\n\(line)\nstatus: exit 0\n", to: "ref/count.expect")
            let bad = try room.grade(["bob"])
            #expect(bad.lines(containing: "ref/count.expect:2: \(problem)").count >= 1, "\(line): \(bad)")
        }
    }

}
