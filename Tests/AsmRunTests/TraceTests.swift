import Foundation
import Support
import Testing

/// `asmrun trace` with the real tools: natively (ptrace), under qemu on this machine, and as on an
/// ARM host (qemu's gdbstub), for elf64 and elf32, `_start` and C `main`, stdin and runaway loops.
@Suite(.tags(.integration), .needsTools)
struct TraceTests {
    typealias Way = CrashReportTests.Way
    static let ways = CrashReportTests.ways

    static let counting = """
        section .data
        total: dq 0
        section .text
        global _start
        _start:
                mov     ecx, 4
                xor     eax, eax
        .loop:
                add     eax, ecx        ; total += counter
                mov     [total], rax
                dec     ecx
                jnz     .loop
                mov     edi, eax
                mov     eax, 60
                syscall

        """

    private func program(_ name: String, _ text: String) throws -> (folder: String, path: String) {
        let folder = try Fixture.temporaryDirectory()
        try Fixture.write(text, to: folder + "/" + name)
        return (folder, folder + "/" + name)
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test(arguments: ways) func aCountingLoopIsAFewLinesWithWhatChanged(way: Way) throws {
        let (folder, path) = try program("count.asm", Self.counting)
        defer { Files.removeTree(folder) }
        let result = try Fixture.asmrun(["trace", path] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(10), "\(result.stderr)")
        let shown = lines(result.stderr)
        #expect(shown.count < 20, "\(shown)")
        #expect(
            Array(shown.prefix(4)) == [
                "    6  mov ecx, 4                      rcx=4",
                "    7  xor eax, eax                    ZF=1",
                "    9  add eax, ecx                    rax=4 ZF=0",
                "   10  mov [total], rax                total=4 (was 0)",
            ])
        #expect(shown.contains("       lines 9–12 ran 4 times; last pass: rax=10 rcx=0 ZF=1 total=10 (was 9)"), "\(shown)")
        #expect(shown.contains("         → exit(10)"))
        #expect(shown.last == "asmrun: \(path) exited with status 10 after 21 steps")
    }

    @Test(arguments: ways) func thirtyTwoBitProgramsShowTheirOwnRegistersAndInt80Calls(way: Way) throws {
        let result = try Fixture.asmrun(["trace", Fixture.corpus + "/hello32.asm"] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout == "Hello from 32-bit land!\n")
        let shown = lines(result.stderr)
        #expect(shown.contains("   12  mov eax, 4                      eax=4"), "\(shown)")
        #expect(shown.contains("         → write(1, \"Hello from 32-bit land!\\n\", 24) = 24"), "\(shown)")
        #expect(!result.stderr.contains("rax"))
    }

    @Test(arguments: ways) func aCMainProgramsLibraryCallsAreOneLine(way: Way) throws {
        let result = try Fixture.asmrun(["trace", Fixture.corpus + "/printf.asm"] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout == "assembly has 8 letters\n")
        let shown = lines(result.stderr)
        #expect(shown.first?.hasPrefix("   11  push rbp") == true, "\(shown)")
        #expect(shown.contains("         → printf returned rax=23 (library code, not traced)"), "\(shown)")
        #expect(shown.count < 20, "\(shown)")
    }

    @Test(arguments: ways) func aRunawayLoopStopsAtTheStepBoundWithOneLine(way: Way) throws {
        let (folder, path) = try program("spin.asm", "section .text\nglobal _start\n_start:\n  inc eax\n  jmp _start\n")
        defer { Files.removeTree(folder) }
        let result = try Fixture.asmrun(["trace", path, "--steps", "500"] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(124), "\(result.stderr)")
        let shown = lines(result.stderr)
        #expect(shown.contains("       lines 4–5 ran 250 times; last pass: rax=250"), "\(shown)")
        #expect(shown.last?.hasPrefix("asmrun: \(path): stopped after 500 steps, the --steps limit") == true, "\(shown)")
        #expect(shown.count < 8)
    }

    @Test(arguments: ways) func theProgramReadsItsStdinAndTheTraceShowsWhatItRead(way: Way) throws {
        let result = try Fixture.asmrun(
            ["trace", Fixture.corpus + "/echo.asm"] + way.arguments, environment: way.environment, stdin: "hi there\n")
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout == "hi there\n")
        #expect(result.stderr.contains("→ read(0, \"hi there\\n\", 4096) = 9"), "\(result.stderr)")
        #expect(result.stderr.contains("buf=\"hi there\\n\""), "\(result.stderr)")
        #expect(result.stderr.contains("→ read(0, 0x402000, 4096) = 0"))
    }

    @Test(arguments: ways) func aCrashEndsTheTraceWithTheSignal(way: Way) throws {
        let path = Fixture.corpus + "/crashes/null_write.asm"
        let result = try Fixture.asmrun(["trace", path] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(139), "\(result.stderr)")
        #expect(lines(result.stderr).last?.hasPrefix("asmrun: \(path): killed by SIGSEGV after ") == true, "\(result.stderr)")
    }

    @Test func jsonHoldsTheVisitsAndTheFoldedLoop() throws {
        let (folder, path) = try program("count.asm", Self.counting)
        defer { Files.removeTree(folder) }
        let result = try Fixture.asmrun(["trace", path, "--json", folder + "/trace.json"])
        #expect(result.status == .exited(10))
        #expect(!result.stderr.contains("mov ecx"))
        let document = try Fixture.json(folder + "/trace.json")
        #expect(document["end"] as? String == "exited" && document["status"] as? Int == 10 && document["steps"] as? Int == 21)
        let entries = try #require(document["entries"] as? [[String: Any]])
        let loop = try #require(entries.first { $0["kind"] as? String == "loop" })
        #expect(loop["first"] as? Int == 9 && loop["last"] as? Int == 12 && loop["passes"] as? Int == 4)
    }

    @Test func theStepBoundIsRangeChecked() throws {
        for bad in ["0", "1000001", "ten", "-5"] {
            let result = try Fixture.asmrun(["trace", Fixture.corpus + "/hello.asm", "--steps", bad])
            #expect(result.status == .exited(125))
            #expect(result.stderr == "asmrun: --steps takes a number of instructions from 1 to 1000000, not `\(bad)`\n")
        }
    }
}
