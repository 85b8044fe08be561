import Foundation
import Support
import Testing

@testable import Run

/// `asmrun debug` as a learner uses it: gdb reads its commands from stdin here (not a terminal),
/// so a test can `continue` the program to its end and read what it printed.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct DebugSessionTests {
    typealias Way = CrashReportTests.Way

    @Test(arguments: CrashReportTests.ways) func argumentsWithBlanksReachTheProgramWhole(way: Way) throws {
        let result = try Fixture.asmrun(
            ["debug", Fixture.corpus + "/args.asm"] + way.arguments + ["--", "a  b", "it's", "\"q\""], environment: way.environment,
            stdin: "continue\n")
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout.contains("argc: 4\n"), "\(result.stdout)")
        #expect(result.stdout.contains("\na  b\nit's\n\"q\"\n"), "\(result.stdout)")
    }

    @Test(arguments: CrashReportTests.ways) func stdinFileIsWhatTheProgramReads(way: Way) throws {
        let folder = try Fixture.temporaryDirectory()
        defer { Files.removeTree(folder) }
        try Fixture.write("line one\nline two\n", to: folder + "/input with space.txt")
        let result = try Fixture.asmrun(
            ["debug", Fixture.corpus + "/echo.asm", "--stdin", folder + "/input with space.txt"] + way.arguments,
            environment: way.environment, stdin: "continue\n")
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout.contains("line one\nline two\n[Inferior 1 (process "), "\(result.stdout)")
    }

    @Test(arguments: CrashReportTests.ways) func gdbNamesTheProgramAndTheGreetingExplainsLabelsAndRestarting(way: Way) throws {
        let result = try Fixture.asmrun(
            ["debug", Fixture.corpus + "/echo.asm"] + way.arguments, environment: way.environment, stdin: "quit\n")
        #expect(result.status == .exited(0), "\(result.stderr)")
        let read = result.stdout.split(separator: "\n").filter { $0.hasPrefix("Reading symbols from ") }
        #expect(!read.isEmpty && read.allSatisfy { $0.hasSuffix("/echo...") }, "\(read)")
        #expect(!result.stdout.contains("more recent than executable"))
        #expect(result.stdout.contains("`.read` under `_start` is `break _start.read`"), "\(result.stdout)")
        let restart = way == .native ? "run (r) starts the program again" : "to restart, quit (q) and run asmrun debug again"
        #expect(result.stdout.contains(restart), "\(result.stdout)")
    }

    @Test func aMissingStdinFileIsOneLine() throws {
        let result = try Fixture.asmrun(["debug", Fixture.corpus + "/echo.asm", "--stdin", "/nonexistent/input.txt"])
        #expect(result.status == .exited(125))
        #expect(
            result.stderr
                == "asmrun: /nonexistent/input.txt: cannot be read (--stdin); name a file the program should read as its input\n")
    }

    @Test func localLabelsAreNamedWithTheirOwner() {
        #expect(DebugGreeting.firstLocalLabel("global _start\n_start:\n  mov ecx, 3\n.loop: dec ecx\n  jnz .loop\n") == "_start.loop")
        #expect(DebugGreeting.firstLocalLabel("main:\n  ret\n") == nil)
        #expect(DebugGreeting.firstLocalLabel("  .x: nop\nf:\n..@y: nop\n.body:\n") == "f.body")
        #expect(DebugGreeting.shellQuoted("it's a b") == "'it'\\''s a b'")
    }
}
