import Foundation
import Support
import Testing

/// Names that hold a newline reach every note asmrun prints, and none of them can start a line
/// of its own: a forged `PASS` line or a forged message would be believed by whoever reads the log.
@Suite(.tags(.integration), .needsTools)
struct ForgedLineTests {
    /// `asmrun test -v` lists each skipped file by name.
    @Test func aSkippedFileCannotForgeAPassLine() throws {
        let directory = try Fixture.folder(Fixture.helloSuite)
        defer { Files.removeTree(directory) }
        try Fixture.write("; not a program\n", to: directory + "/x\nPASS  forged.asm:default [native] (0 ms)\ny.s")
        let result = try Fixture.asmrun(["test", directory, "-v", "--runner", Fixture.runner])
        #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
        let lines = (result.stdout + result.stderr).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("PASS  forged") }, "no forged PASS line: \(result.stderr)")
        #expect(result.stderr.contains("note: skipped \(directory)/x\\nPASS  forged.asm:default [native] (0 ms)\\ny.s: "))
    }

    /// `asmrun FILE.asm` on a file of functions names the C drivers of its folder it builds with.
    @Test func aCDriverCannotForgeALine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(
            "global add1\nsection .text\nadd1:\n    lea eax, [rdi + 1]\n    ret\nsection .note.GNU-stack\n", to: directory + "/add.asm")
        try Fixture.write("int add1(int);\nint main(void) { return add1(2) - 3; }\n", to: directory + "/d\nFORGED.c")
        let result = try Fixture.asmrun([directory + "/add.asm"])
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "no forged line: \(result.stderr)")
        #expect(result.stderr.contains("building it with the C files of its folder: \(directory)/d\\nFORGED.c\n"), "\(result.stderr)")
    }

    /// Submission folders named to overwrite their score on a terminal (`\e[2K\r`), to forge
    /// a `PASS` line and a `scores:` block in a log, and to start workflow commands under GitHub
    /// Actions: the `scores:` block printed them raw, outside the `::stop-commands::` fence.
    @Test func aSubmissionsNameCannotForgeItsScore() throws {
        let room = try Classroom()
        defer { room.remove() }
        let names = [
            "\u{1b}[2K\r  subs/mallory  6/6\u{1b}[8m",
            "x\nPASS  subs/mallory/count.asm:secret [native] (hidden) (0 ms)\nscores:\n  subs/mallory  3/3\n",
            "y\n::notice title=grader::forged annotation\n::add-mask::subs",
        ]
        for name in names { try room.write(Classroom.wrong, to: "subs/mallory/\(name)/count.asm") }
        let paths = names.map { "subs/mallory/" + $0 }
        let graded = try Fixture.asmrun(
            ["test"] + paths + ["--reference", "ref", "--runner", Fixture.runner], in: room.root,
            environment: ["GITHUB_ACTIONS": "true"])
        let log = graded.stdout + graded.stderr
        #expect(graded.status == .exited(1), "\(log)")
        #expect(!log.contains("\u{1b}") && !log.contains("\r"), "\(log)")
        let lines = log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("PASS") || $0.hasPrefix("  subs/mallory  ") }, "\(log)")
        #expect(lines.filter { $0 == "scores:" }.count == 1, "\(log)")
        #expect(lines.contains { $0.hasPrefix("  subs/mallory/\\e[2K\\r  subs/mallory  6/6\\e[8m") && $0.hasSuffix("  0/3") }, "\(log)")
        let obeyed = ReportAttackTests.workflowCommands(in: log)
        // asmrun's own annotations of the failures, and nothing else.
        let own = obeyed.filter { $0.hasPrefix("::error file=subs/mallory/") || $0.hasPrefix("::error file=ref/count.expect,") }
        #expect(own.count == 12 && own.count == obeyed.count, "\(obeyed)\n\(log)")
    }
}
