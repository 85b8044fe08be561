import Foundation
import Processes
import Support
import Testing

@testable import Run

/// `asmrun debug --batch`, `--strace` and `-g`, with the real gdb, strace and qemu.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct DebugToolsTests {
    static let ways = CrashReportTests.ways

    @Test(arguments: ways) func debugBatchStopsAtTheEntryPointAndShowsItsLine(way: CrashReportTests.Way) throws {
        let hello = Fixture.corpus + "/hello.asm"
        let result = try Fixture.asmrun(["debug", hello, "--batch"] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout.contains("_start () at \(hello):9\n9\t        mov     eax, 1          ; write("), "\(result.stdout)")
        #expect(result.stdout.contains("rip            0x401000            0x401000 <_start>"))
        #expect(!result.stderr.contains("Terminated via GDBstub"))
    }

    @Test(arguments: ways) func debugStopsAtMainInALibcProgram(way: CrashReportTests.Way) throws {
        let printf = Fixture.corpus + "/printf.asm"
        let result = try Fixture.asmrun(["debug", printf, "--batch"] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stdout.contains("main () at \(printf):11\n11\t        push    rbp"), "\(result.stdout)")
    }

    @Test(arguments: ways) func straceFindsTheWriteOfHello(way: CrashReportTests.Way) throws {
        let result = try Fixture.asmrun([Fixture.corpus + "/hello.asm", "--strace"] + way.arguments, environment: way.environment)
        #expect(result.stdout == "Hello, World!\n")
        #expect(result.status == .exited(0))
        let calls = result.stderr.split(separator: "\n").map(String.init)
        let write = way == .native ? "  write(1, \"Hello, World!\\n\", 14) = 14" : "  write(1, 0x402000, 14) = 14"
        #expect(
            calls == [
                "asmrun: system calls of \(Fixture.corpus)/hello.asm (\(way == .native ? "strace" : "qemu -strace")):", write, "  exit(0)",
            ])
    }

    @Test func straceAndQemuLinesReadTheSame() {
        #expect(SystemCallTrace.normalize("write(1, \"a, b\", 4)            = 4", spacingCommas: false) == "write(1, \"a, b\", 4) = 4")
        #expect(SystemCallTrace.normalize("1234 write(1,0x402000,14) = 14", spacingCommas: true) == "write(1, 0x402000, 14) = 14")
        #expect(
            SystemCallTrace.normalize("open(\"x\", O_RDONLY)   = -1 ENOENT (No such file or directory)", spacingCommas: false)
                == "open(\"x\", O_RDONLY) = -1 ENOENT (No such file or directory)")
        #expect(
            SystemCallTrace.normalize("77 open(\"x\",O_RDONLY) = -1 errno=2 (No such file or directory)", spacingCommas: true)
                == "open(\"x\", O_RDONLY) = -1 ENOENT (No such file or directory)")
        #expect(SystemCallTrace.normalize("752   write(1, \"hi\", 2) = 2", spacingCommas: false) == "write(1, \"hi\", 2) = 2")
        #expect(SystemCallTrace.normalize("exit(0)                                 = ?", spacingCommas: false) == "exit(0)")
        #expect(SystemCallTrace.normalize("+++ exited with 0 +++", spacingCommas: false) == nil)
        #expect(SystemCallTrace.normalize("execve(\"./h\", [\"./h\"], 0x7ffc /* 39 vars */) = 0", spacingCommas: false) == nil)
    }

    /// `-g` keeps line tables in the executable at `-o`, as `nasm -g` would; without it the
    /// executable is the classic build, with symbols but no lines.
    @Test func theExecutableAtOutputHasLineInformationWithG() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        for flags in [["-g"], []] {
            let output = directory + "/hello\(flags.count)"
            let result = try Fixture.asmrun([Fixture.corpus + "/hello.asm", "-o", output] + flags)
            #expect(result.status == .exited(0))
            let gdb = try PosixLauncher(path: Fixture.environment["PATH"]).run(
                Command("gdb-multiarch", ["-nx", "-batch", "-ex", "info line _start", output]), options: LaunchOptions())
            let answer = String(decoding: gdb.stdout, as: UTF8.self)
            if flags.isEmpty {
                #expect(answer.hasPrefix("No line number information available for address"), "\(answer)")
            } else {
                #expect(answer.hasPrefix("Line 9 of \"\(Fixture.corpus)/hello.asm\""), "\(answer)")
            }
        }
    }
}
