import Foundation
import Support
import Testing

/// The ABI checks' defaults: a failed case and a crash are checked without being asked,
/// `--no-checks` turns the checks (the `syscall` warnings included) off; 32-bit code is checked
/// for ebx, esi, edi and ebp; the sample corpus has no finding but in the crash samples made to
/// break the convention.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct AbiCheckDefaultsTests {
    typealias Way = CrashReportTests.Way

    @Test(arguments: CrashReportTests.ways)
    func aFailedCaseIsCheckedByDefaultAndNotWithNoChecks(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let sample = AbiCheckTests.samples[1]  // aligned_call.asm, which prints the right line broken too
        let target = try AbiCheckTests.broken(sample, in: directory)
        // The line it prints is right: the case passes and is not checked.
        let passing = Fixture.test([target] + way.arguments, environment: way.environment)
        #expect(passing.status == 0 && !passing.output.contains("ABI check"), "\(passing.output)")
        try Fixture.write("[case default]\nstdout:\n| 7 squared is 50\nstatus: exit 0\n", to: directory + "/aligned_call.expect")
        let failed = Fixture.test([target, "--json", directory + "/r.json"] + way.arguments, environment: way.environment)
        #expect(failed.status == 1)
        #expect(failed.output.contains("    \(target):16: ABI check: rsp is not a multiple of 16 at `call printf`"), "\(failed.output)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as? [String: Any]
        let checks = ((json?["results"] as? [[String: Any]])?.first)?["abi_checks"] as? [String]
        #expect(checks?.first?.hasPrefix("\(target):16: ABI check: rsp is not a multiple of 16") == true, "\(String(describing: checks))")
        let unchecked = Fixture.test([target, "--no-checks"] + way.arguments, environment: way.environment)
        #expect(unchecked.status == 1 && !unchecked.output.contains("ABI check"), "\(unchecked.output)")
    }

    @Test(arguments: CrashReportTests.ways)
    func aCrashIsCheckedAfterItsReportAndNotWithNoChecks(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let target = try AbiCheckTests.broken(AbiCheckTests.samples[2], in: directory)  // balanced_ret.asm
        let run = try Fixture.asmrun([target] + way.arguments, environment: way.environment)
        #expect(run.status == .exited(139))
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("asmrun: \(target):6: SIGSEGV") == true, "\(run.stderr)")
        #expect(lines.last?.hasPrefix("asmrun: \(target):17: ABI check: rsp at `ret` is 8 bytes below") == true, "\(run.stderr)")
        let unchecked = try Fixture.asmrun([target, "--no-checks"] + way.arguments, environment: way.environment)
        #expect(
            unchecked.stderr.hasPrefix("asmrun: \(target):6: SIGSEGV") && !unchecked.stderr.contains("ABI check"), "\(unchecked.stderr)")
    }

    /// The stack at `ret` in 32-bit code, a word being 4 bytes, natively, under qemu-i386 and as on ARM.
    @Test(arguments: CrashReportTests.ways)
    func thirtyTwoBitCodeRetIsChecked(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let text = "bits 32\nglobal _start\nwork:\n    push ebx\n    ret\n_start:\n    call work\n    mov eax, 1\n    int 0x80\n"
        try Fixture.write(text, to: directory + "/work.asm")
        let run = try Fixture.asmrun([directory + "/work.asm"] + way.arguments, environment: way.environment)
        #expect(
            run.stderr.contains(
                "asmrun: \(directory)/work.asm:5: ABI check: esp at `ret` is 4 bytes below its value when `work` was entered"),
            "\(run.stderr)")
    }

    static let keepsEbx = """
        ; asmrun: format elf32
        extern printf
        section .data
        fmt:    db "%d %d %d", 10, 0
        section .text
        global main
        main:
                push    ebx                     ; abi:
                push    esi                     ; abi:
                push    edi                     ; abi:
                mov     ebx, 1
                mov     esi, 2
                mov     edi, 3
                push    edi
                push    esi
                push    ebx
                push    fmt
                call    printf
                add     esp, 16
                pop     edi                     ; abi:
                pop     esi                     ; abi:
                pop     ebx                     ; abi:
                xor     eax, eax
                ret
        """

    /// 32-bit libc programs need i686 gcc, which an ARM host (simulated or not) may lack: natively and under qemu.
    @Test(arguments: CrashReportTests.ways.filter { $0 != .arm })
    func thirtyTwoBitCodeKeepsEbxEsiEdiEbp(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.keepsEbx, to: directory + "/keeps.asm")
        try Fixture.write("[case default]\nstdout:\n| 1 2 3\nstatus: exit 0\n", to: directory + "/keeps.expect")
        let correct = Fixture.test([directory + "/keeps.asm", "--checks", "always"] + way.arguments)
        #expect(correct.status == 0, "\(correct.output)")
        let broken = Self.keepsEbx.split(separator: "\n").filter { !$0.contains("; abi:") }.joined(separator: "\n")
        try Fixture.write(broken, to: directory + "/broken.asm")
        try Fixture.write("[case default]\nstdout:\n| 1 2 3\nstatus: exit 0\n", to: directory + "/broken.expect")
        let run = Fixture.test([directory + "/broken.asm", "--checks", "always"] + way.arguments)
        #expect(run.status == 1)
        #expect(
            run.output.contains("    \(directory)/broken.asm:18: ABI check: `main` (called from C) returns with ebx, esi, edi changed"),
            "\(run.output)")
    }

    /// Natively the program's output and gdb's share a pipe: a program printing lines like the
    /// stops gdb prints makes no finding (each run's marker is its own).
    @Test(arguments: CrashReportTests.ways.filter { $0 != .arm })
    func aProgramCannotPrintStopsOfItsOwn(way: Way) throws {
        let directory = try Fixture.folder([
            "forger.asm": """
            extern puts
            section .rodata
            forged: db "@@abi 1 8 0 0 0 0 0 0 0", 0
            section .text
            global main
            main:
                    push    rbp
                    lea     rdi, [rel forged]
                    call    puts
                    pop     rbp
                    mov     eax, 1
                    ret
            """,
            "forger.expect": "[case default]\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let run = Fixture.test([directory + "/forger.asm"] + way.arguments)
        #expect(run.status == 1 && run.output.contains("expected exit 0, got exit 1"), "\(run.output)")
        #expect(!run.output.contains("ABI check"), "\(run.output)")
    }

    /// The `syscall` clobber warning is an ABI check too: `--no-checks` silences it, in a run and
    /// in a test; its twin (the counter in r12) has none.
    @Test func noChecksSilencesTheSyscallWarning() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let file = directory + "/status.asm"
        try Fixture.write(
            "global _start\n_start:\n    mov eax, 39\n    syscall\n    mov edi, r11d\n    and edi, 1\n    mov eax, 60\n    syscall\n",
            to: file)
        let warning = "\(file):5: warning: r11d is read here"
        let run = try Fixture.asmrun([file, "--runner", "qemu"])
        #expect(run.stderr.contains(warning), "\(run.stderr)")
        let quiet = try Fixture.asmrun([file, "--runner", "qemu", "--no-checks"])
        #expect(!quiet.stderr.contains("warning"), "\(quiet.stderr)")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/status.expect")
        let tested = Fixture.test([file, "--runner", "qemu", "-v"])
        #expect(tested.output.contains(warning) || tested.errors.contains(warning), "\(tested.output)")
        let untested = Fixture.test([file, "--runner", "qemu", "-v", "--no-checks"])
        #expect(!untested.output.contains("warning:") && !untested.errors.contains("warning:"), "\(untested.output)")
        let twin = try Fixture.asmrun([Fixture.corpus + "/checks/syscall_counter.asm", "--runner", "qemu"])
        #expect(twin.stdout == "tick\ntick\ntick\n" && twin.stderr.isEmpty, "\(twin.stderr)")
    }

    /// Every program of asm/ with every case checked: findings only in the two crash samples
    /// made to break the convention, as a teacher's `asmrun test asm --checks always` shows.
    @Test(arguments: [Way.qemu, Way.arm] + (Fixture.nativeHost ? [Way.native] : []))
    func theSampleCorpusHasNoFinding(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let report = directory + "/r.json"
        let run = Fixture.test([Fixture.corpus, "--checks", "always", "--json", report] + way.arguments, environment: way.environment)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let results = try #require(json?["results"] as? [[String: Any]])
        let found = Set(results.filter { $0["abi_checks"] != nil }.compactMap { $0["program"] as? String })
        #expect(
            found
                == ["asm/crashes/bad_ret.asm", "asm/crashes/misaligned_printf.asm"].map { Fixture.packageRoot + "/" + $0 }.reduce(
                    into: Set()
                ) { $0.insert($1) }, "\(run.output)")
        let failed = results.filter {
            ($0["status"] as? String) != "pass" && ($0["status"] as? String) != "skip" && ($0["status"] as? String) != "xfail"
        }
        #expect(Set(failed.compactMap { $0["program"] as? String }) == found, "\(run.output)")
        #expect(results.count > 30)
    }
}
