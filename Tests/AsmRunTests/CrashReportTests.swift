import Foundation
import Support
import Testing

/// The crash samples in asm/crashes/, run end to end: each report names its file and line, shows
/// the line's text, the instruction and stack pointers and the hint for its mistake, natively,
/// under qemu, and on a simulated ARM host (qemu's gdbstub and gdb-multiarch).
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct CrashReportTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        var file: String
        var signal: String
        var hint: String
        /// The report names the line marked `; crash`; false where there is no line to name. A
        /// hint's `{path}` is the sample's path.
        var namesLine = true
        var thirtyTwoBit = false
        /// It crashes only under qemu.
        var qemuOnly = false
        /// The file with the `; crash` line, when another than the sample (an include).
        var markedIn: String?
        var testDescription: String { file }
    }

    static let samples: [Sample] = [
        Sample(file: "noexit.asm", signal: "SIGSEGV", hint: "execution ran past the last instruction of _start ({path}:13)"),
        Sample(file: "noexit32.asm", signal: "SIGSEGV", hint: "forget the exit system call (mov eax, 1 / int 0x80)", thirtyTwoBit: true),
        Sample(file: "null_write.asm", signal: "SIGSEGV", hint: "address 0x0 is near zero"),
        Sample(file: "null_write32.asm", signal: "SIGSEGV", hint: "address 0x0 is near zero", thirtyTwoBit: true),
        Sample(file: "after_signal.asm", signal: "SIGSEGV", hint: "address 0x0 is near zero"),
        Sample(
            file: "misaligned_printf.asm", signal: "SIGSEGV",
            hint: "in printf called from {path}:15 faulted: the stack was not 16-byte aligned"),
        Sample(
            file: "misaligned_sse.asm", signal: "SIGSEGV",
            hint:
                "`addps` needs its memory operand 16-byte aligned, and 0x402004 (`table`) is not: x86 hardware raises SIGSEGV for it; "
                + "put `align 16` before `table`"),
        Sample(file: "typo_sycall.asm", signal: "SIGSEGV", hint: "nasm warned about {path}:8, a label alone on a line"),
        Sample(
            file: "bad_ret.asm", signal: "SIGSEGV",
            hint:
                "0x0 is not code: a `ret` returned to whatever was on top of the stack (a push without its pop in work, called at {path}:7"),
        Sample(file: "div_zero.asm", signal: "SIGFPE", hint: "division by zero: ecx was 0"),
        Sample(file: "div_zero32.asm", signal: "SIGFPE", hint: "division by zero: ecx was 0", thirtyTwoBit: true),
        Sample(file: "div_overflow.asm", signal: "SIGFPE", hint: "the quotient does not fit: clear the high half"),
        Sample(file: "exec_data.asm", signal: "SIGSEGV", hint: "the program is executing .data", namesLine: false),
        Sample(file: "exec_stack.asm", signal: "SIGSEGV", hint: "the program executed code on the stack, which is not executable"),
        Sample(file: "int80_64.asm", signal: "SIGSEGV", hint: "`int 0x80` in 64-bit code", qemuOnly: true),
        Sample(file: "include_null.asm", signal: "SIGSEGV", hint: "address 0x0 is near zero", markedIn: "store.inc"),
        Sample(file: "breakpoint.asm", signal: "SIGTRAP", hint: "an `int3` (breakpoint) instruction stopped the program"),
        Sample(file: "write_rodata.asm", signal: "SIGSEGV", hint: "writes into .rodata (read-only data) at {path}:9: copy it to .data"),
        Sample(file: "write_rodata32.asm", signal: "SIGSEGV", hint: "writes into .rodata (read-only data) at {path}:9", thirtyTwoBit: true),
        Sample(file: "write_text.asm", signal: "SIGSEGV", hint: "writes into .text (its code, which is read-only) at {path}:5"),
        Sample(
            file: "cut_stack.asm", signal: "SIGSEGV",
            hint: "this looks like 32-bit code built as 64-bit: the address is the low half of rsp/rbp"),
    ]

    /// Where each sample runs: natively (x86 hosts), under qemu, and as on an ARM host.
    enum Way: String, CaseIterable, Sendable {
        case native, qemu, arm
        var arguments: [String] { self == .arm ? [] : ["--runner", rawValue] }
        var environment: [String: String] { self == .arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:] }
    }

    static let ways = Fixture.nativeHost ? Way.allCases : [.qemu, .arm]

    /// Each sample under each way it crashes under (a qemu-only crash is not run natively).
    static let runs = samples.flatMap { sample in ways.filter { !(sample.qemuOnly && $0 == .native) }.map { (sample, $0) } }

    @Test(arguments: zip(runs.map(\.0), runs.map(\.1)))
    func reportNamesTheLineTheRegistersAndTheHint(sample: Sample, way: Way) throws {
        let path = Fixture.corpus + "/crashes/" + sample.file
        let result = try Fixture.asmrun([path] + way.arguments, environment: way.environment)
        let lines = result.stderr.split(separator: "\n").map(String.init).filter { !$0.contains(": warning: ") }
        let markedPath = sample.markedIn.map { Fixture.corpus + "/crashes/" + $0 } ?? path
        let source = try String(contentsOfFile: markedPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        if sample.namesLine {
            let marked = try #require(source.firstIndex { $0.contains("; crash") })
            #expect(lines.first?.hasPrefix("asmrun: \(markedPath):\(marked + 1): \(sample.signal) ") == true, "\(lines)")
            #expect(lines.dropFirst().first == "    \(marked + 1) | \(source[marked])")
        } else {
            #expect(lines.first?.hasPrefix("asmrun: \(path): \(sample.signal) ") == true, "\(lines)")
        }
        let (ip, sp) = sample.thirtyTwoBit ? ("eip", "esp") : ("rip", "rsp")
        #expect(lines.contains { $0.contains("  \(ip) 0x") } && lines.contains { $0.contains("  \(sp) 0x") }, "\(lines)")
        let hint = sample.hint.replacing("{path}", with: path)
        #expect(lines.contains { $0.hasPrefix("  hint: ") && $0.contains(hint) }, "\(lines)")
        #expect(!result.stderr.contains("qemu:") && !result.stderr.contains("(gdb)"), "no emulator or debugger noise")
    }

    @Test(arguments: ways.filter { $0 != .arm }) func noCrashReportIsOneLineAndOneRun(way: Way) throws {
        // The program appends to a file before it crashes: run once, the file has one line.
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(
            """
            section .data
            name: db "log", 0
            line: db "ran", 10
            section .text
            global _start
            _start:
                    mov     eax, 2              ; open("log", O_WRONLY|O_CREAT|O_APPEND, 0644)
                    lea     rdi, [rel name]
                    mov     esi, 0x441
                    mov     edx, 0o644
                    syscall
                    mov     edi, eax
                    mov     eax, 1              ; write(fd, line, 4)
                    lea     rsi, [rel line]
                    mov     edx, 4
                    syscall
                    mov     [0], eax            ; crash
            """, to: directory + "/appends.asm")
        let once = try Fixture.asmrun([directory + "/appends.asm", "--no-crash-report"] + way.arguments, in: directory)
        #expect(once.stderr == "asmrun: \(directory)/appends.asm: killed by SIGSEGV (segmentation fault)\n")
        #expect(once.status == .exited(139))
        #expect(try String(contentsOfFile: directory + "/log", encoding: .utf8) == "ran\n")
        let reported = try Fixture.asmrun([directory + "/appends.asm"] + way.arguments, in: directory)
        #expect(reported.stderr.hasPrefix("asmrun: \(directory)/appends.asm:17: SIGSEGV"), "\(reported.stderr)")
        #expect(try String(contentsOfFile: directory + "/log", encoding: .utf8) == "ran\nran\nran\n", "the report ran it twice")
    }

    @Test func theReportIsTheDetailOfAFailingCaseInTheConsoleJSONAndJUnit() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/crashes/null_write.asm", toPath: directory + "/null_write.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/null_write.expect")
        let run = Fixture.test([directory, "--runner", "qemu", "--json", directory + "/r.json", "--junit", directory + "/r.xml"])
        #expect(run.status == 1)
        #expect(
            run.output.contains("    asmrun: \(directory)/null_write.asm:7: SIGSEGV (segmentation fault) writing address 0x0"),
            "\(run.output)")
        #expect(run.output.contains("      hint: address 0x0 is near zero"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as? [String: Any]
        #expect(json?["schema"] as? String == "asmrun-report/2")
        let crash = try #require(((json?["results"] as? [[String: Any]])?.first)?["crash"] as? [String: Any])
        #expect(crash["signal"] as? String == "SIGSEGV")
        #expect(crash["line"] as? Int == 7)
        #expect(crash["source_line"] as? String == "        mov     [rbx], eax              ; crash: writes to address 0")
        #expect(crash["address"] as? String == "0x0")
        #expect(crash["access"] as? String == "writing")
        #expect((crash["registers"] as? [String: String])?["rbx"] == "0x0")
        #expect((crash["hints"] as? [String])?.first?.hasPrefix("address 0x0 is near zero") == true)
        let junit = try String(contentsOfFile: directory + "/r.xml", encoding: .utf8)
        #expect(junit.contains("null_write.asm:7: SIGSEGV (segmentation fault) writing address 0x0"))
    }

    /// A failing case's report, like `asmrun FILE`'s, is about the signal that ended the program,
    /// not a SIGUSR1 it handled before (gdb stops at that signal alone).
    @Test(arguments: ways) func aCaseReportNamesTheSignalThatEndedTheProgram(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/crashes/after_signal.asm", toPath: directory + "/after_signal.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/after_signal.expect")
        let run = try Fixture.asmrun(["test", directory, "--no-checks"] + way.arguments, environment: way.environment)
        #expect(run.status == .exited(1))
        #expect(
            run.stdout.contains("    asmrun: \(directory)/after_signal.asm:19: SIGSEGV (segmentation fault) writing address 0x0"),
            "\(run.stdout)")
        #expect(!run.stdout.contains("SIGUSR1"), "\(run.stdout)")
    }

    @Test func anExpectedCrashPassesAndShowsItsReportOnlyWithVerbose() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/crashes/div_zero.asm", toPath: directory + "/div_zero.asm")
        try Fixture.write("[case default]\nstatus: signal SIGFPE\n", to: directory + "/div_zero.expect")
        let quiet = Fixture.test([directory, "--runner", "qemu"])
        #expect(quiet.status == 0)
        #expect(!quiet.output.contains("hint:"), "\(quiet.output)")
        let verbose = Fixture.test([directory, "--runner", "qemu", "-v"])
        #expect(verbose.status == 0)
        #expect(verbose.output.contains("    asmrun: \(directory)/div_zero.asm:8: SIGFPE (floating-point exception)"), "\(verbose.output)")
        #expect(verbose.output.contains("      hint: division by zero: ecx was 0"))
    }
}
