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
}
