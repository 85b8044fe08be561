import Glibc
import Suite
import Support
import Testing

@testable import Session

/// What a watch mode watches and what a save touches (`WatchSet`), and what the inputs of a
/// program loaded from disk are.
struct WatchSetTests {
    private let set = WatchSet(
        programs: [
            .init(path: "d/hello.asm", inputs: ["/w/d/hello.asm", "/w/d/hello.expect", "/w/d/common.inc"]),
            .init(path: "d/other.asm", inputs: ["/w/d/other.asm", "/w/d/other.expect", "/w/d/common.inc", "/w/lib/io.inc"]),
            .init(path: "d/leap", inputs: ["/w/d/leap/leap.asm", "/w/d/leap/leap.expect"], folder: "/w/d/leap"),
        ], folders: ["/w/d", "/w/d/empty"])

    @Test func theFoldersAreTheInputsAndTheRootsFolders() {
        #expect(set.folders == ["/w/d", "/w/d/empty", "/w/lib", "/w/d/leap"])
        #expect(set.programs == ["d/hello.asm", "d/other.asm", "d/leap"])
    }

    @Test func anIncludeRerunsEveryProgramThatIncludesIt() {
        #expect(set.affected(by: ["/w/d/common.inc"]).programs == ["d/hello.asm", "d/other.asm"])
        #expect(set.affected(by: ["/w/lib/io.inc"]).programs == ["d/other.asm"])
    }

    @Test func aSourceOrAnExpectationRerunsItsProgramAlone() {
        #expect(set.affected(by: ["/w/d/hello.asm"]) == .init(programs: ["d/hello.asm"]))
        #expect(set.affected(by: ["/w/d/other.expect"]) == .init(programs: ["d/other.asm"]))
        #expect(set.affected(by: ["/w/d/hello.expect", "/w/d/leap/leap.asm"]).programs == ["d/hello.asm", "d/leap"])
    }

    @Test func aNewSourceOrHeaderInAFolderProgramIsItsOwn() {
        for path in ["/w/d/leap/driver.c", "/w/d/leap/more.nasm", "/w/d/leap/driver.h"] {
            #expect(set.isRelevant(path), "\(path)")
            #expect(set.affected(by: [path]) == .init(programs: ["d/leap"]), "\(path)")
        }
    }

    /// What a folder program writes into its folder does not run it again (run mode would
    /// restart it without end), nor does an editor's swap file or `vim`'s write test.
    @Test func anyOtherNewFileInAFolderProgramIsNot() {
        for path in ["/w/d/leap/out.txt", "/w/d/leap/leap.o", "/w/d/leap/.leap.asm.swp", "/w/d/leap/4913", "/w/d/leap/leap.asm~"] {
            #expect(!set.isRelevant(path), "\(path)")
            #expect(set.affected(by: [path]).isEmpty, "\(path)")
            #expect(!RunWatch.touchesProgram([path], set), "\(path)")
        }
    }

    /// Run mode: only the program's own files restart it, not a new program beside it (a
    /// program that writes one would otherwise restart without end).
    @Test func runModeRestartsForItsOwnFilesOnly() {
        let single = WatchSet(programs: [.init(path: "d/wait.asm", inputs: ["/w/d/wait.asm", "/w/d/text.inc"])])
        #expect(!RunWatch.touchesProgram(["/w/d/beside.asm"], single))
        #expect(!RunWatch.touchesProgram(["/w/d/notes.md", "/w/d/new.c"], single))
        #expect(RunWatch.touchesProgram(["/w/d/beside.asm", "/w/d/text.inc"], single))
    }

    @Test func aNewSourceOrMarkdownFileMayBeANewProgram() {
        for path in ["/w/d/new.asm", "/w/d/empty/new.nasm", "/w/d/Shout.NASM", "/w/d/guide.md", "/w/d/main.c"] {
            #expect(set.isRelevant(path), "\(path)")
            #expect(set.affected(by: [path]) == .init(newPrograms: true), "\(path)")
        }
    }

    @Test func whatNoProgramReadsStartsNothing() {
        for path in ["/w/d/report.json", "/w/d/.hello.asm.swp", "/w/d/.#hello.asm", "/w/d/hello.asm~", "/w/d/unused.inc"] {
            #expect(!set.isRelevant(path), "\(path)")
            #expect(set.affected(by: [path]).isEmpty, "\(path)")
        }
    }

    /// Before its first build succeeds a folder program's reads are unknown: any new file in its
    /// folder may be the include it misses, and nothing of it runs to write one.
    @Test func anUnbuiltFolderProgramTakesAnyNewFile() {
        let unbuilt = WatchSet(programs: [.init(path: "lab", inputs: ["/w/lab"], folder: "/w/lab", unbuilt: true)])
        for path in ["/w/lab/m.inc", "/w/lab/data.bin", "/w/lab/out.txt"] {
            #expect(RunWatch.touchesProgram([path], unbuilt), "\(path)")
        }
        #expect(!RunWatch.touchesProgram(["/w/lab/.m.inc.swp"], unbuilt))
    }

    @Test func aRerunKeepsTheProgramsNamedAndNewOnes() {
        let rerun = TestPlan.Rerun(programs: ["d/hello.asm"], known: set.programs)
        #expect(rerun.keeps("d/hello.asm") && rerun.keeps("d/new.asm"))
        #expect(!rerun.keeps("d/other.asm") && !rerun.keeps("d/leap"))
    }

    /// A program loaded from disk: its source, its `.expect` (missing yet), its includes found,
    /// where a missing one would be, all canonical (the folder's links resolved).
    @Test func aProgramReadsItsSourcesIncludesAndExpectations() throws {
        let folder = try TemporaryDirectory(prefix: "watchset")
        defer { folder.remove() }
        let real = try #require(Files.realPath(folder.path))
        try AtomicFile.write(Array("%include \"io.inc\"\n%include \"later.inc\"\nincbin \"data.bin\"\n".utf8), to: real + "/main.asm")
        try AtomicFile.write(Array("; nothing\n".utf8), to: real + "/io.inc")
        try AtomicFile.write([1, 2], to: real + "/data.bin")
        #expect(symlink(real, real + "-link") == 0)
        defer { unlink(real + "-link") }
        var program = TestProgram(path: real + "-link/main.asm")
        program.program?.resolveDependencies()
        let watched = WatchSet.Program(program)
        #expect(watched.path == real + "-link/main.asm")
        #expect(watched.inputs == ["data.bin", "io.inc", "later.inc", "main.asm", "main.expect"].map { real + "/" + $0 })
        #expect(watched.folder == nil)
    }
}
