import Support
import Testing

/// The build warning for an SSE operand at a fixed address that is not aligned, through the
/// tools: natively (where the program crashes), under qemu and as on an ARM host (where it
/// passes, so the warning is all that says so), 64-bit and 32-bit, in `asmrun FILE.asm` and in
/// `asmrun test`; `--no-checks` silences it, a warm build replays it without objdump, and the
/// twin with `align 16` has none.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct AlignmentWarningTests {
    typealias Way = CrashReportTests.Way

    static func negate(aligned: Bool = false) -> String {
        """
        section .data
        value:  dd 2.5
        \(aligned ? "align 16\n" : "")mask:   dd 0x80000000, 0x80000000, 0x80000000, 0x80000000
        out:    db "+", 10
        section .text
        global _start
        _start: movss xmm0, [rel value]
                xorps xmm0, [rel mask]
                mov eax, 1
                mov edi, 1
                lea rsi, [rel out]
                mov edx, 2
                syscall
                mov eax, 60
                xor edi, edi
                syscall

        """
    }

    static let negate32 = """
        bits 32
        section .data
        value:  dd 2.5
        mask:   dd 0x80000000, 0x80000000, 0x80000000, 0x80000000
        section .text
        global _start
        _start: movss xmm0, [value]
                andps xmm0, [mask]
                mov eax, 1
                xor ebx, ebx
                int 0x80

        """

    @Test(arguments: CrashReportTests.ways)
    func theWarningNamesTheLineTheInstructionAndTheLabel(way: Way) throws {
        let directory = try Fixture.folder(["negate.asm": Self.negate(), "negate32.asm": Self.negate32])
        defer { Files.removeTree(directory) }
        let cache = ["XDG_CACHE_HOME": directory + "/cache"]
        for (name, line, mnemonic) in [("negate.asm", 8, "xorps"), ("negate32.asm", 8, "andps")] {
            let file = directory + "/" + name
            let run = try Fixture.asmrun([file] + way.arguments, environment: way.environment.merging(cache) { $1 })
            let warning =
                "\(file):\(line): warning: `\(mnemonic)` reads `mask` (0x\(name == "negate.asm" ? "402004" : "804a004")), which is not "
                + "16-byte aligned: x86 hardware raises SIGSEGV here"
            #expect(run.stderr.hasPrefix(warning), "\(run.stderr)")
            #expect(run.stderr.contains("and qemu-user does not, so this passes under emulation and fails natively"))
            // Natively the hardware faults; under qemu it runs to its end.
            #expect(run.status == (way == .native ? .exited(139) : .exited(0)), "\(run.stderr)")
            if way == .native {
                #expect(run.stderr.contains("  hint: `\(mnemonic)` needs its memory operand 16-byte aligned"), "\(run.stderr)")
            }
            let quiet = try Fixture.asmrun([file, "--no-checks"] + way.arguments, environment: way.environment.merging(cache) { $1 })
            #expect(!quiet.stderr.contains("warning"), "\(quiet.stderr)")
        }
    }

    /// Under qemu the case passes and the warning says so (it does not fail the case: the
    /// instruction may never run); a warm run replays it from the cache without objdump.
    @Test(arguments: [Way.qemu, Way.arm])
    func aPassUnderQemuCarriesTheWarningAndAWarmRunReplaysIt(way: Way) throws {
        let directory = try Fixture.folder(["negate.asm": Self.negate(), "negate.expect": "[case default]\nstdout:\n| +\nstatus: exit 0\n"])
        defer { Files.removeTree(directory) }
        let environment = way.environment.merging(["XDG_CACHE_HOME": directory + "/cache"]) { $1 }
        let warning = "\(directory)/negate.asm:8: warning: `xorps` reads `mask`"
        let cold = Fixture.test([directory, "-v"] + way.arguments, environment: environment)
        #expect(cold.status == 0, "\(cold.output)")
        #expect((cold.output + cold.errors).contains(warning), "\(cold.output)")
        #expect((cold.output + cold.errors).contains("objdump -w -t -d "), "the cold build reads the executable")
        let warm = Fixture.test([directory, "-v"] + way.arguments, environment: environment)
        #expect(warm.status == 0 && (warm.output + warm.errors).contains(warning), "\(warm.output)")
        #expect(!(warm.output + warm.errors).contains("objdump"), "a warm run reads the warning from the cache: \(warm.output)")
        let quiet = Fixture.test([directory, "--no-checks"] + way.arguments, environment: environment)
        #expect(quiet.status == 0 && !quiet.output.contains("warning"), "\(quiet.output)")
    }

    @Test func theAlignedTwinHasNoWarning() throws {
        let directory = try Fixture.folder(["negate.asm": Self.negate(aligned: true)])
        defer { Files.removeTree(directory) }
        let run = try Fixture.asmrun([directory + "/negate.asm"], environment: ["XDG_CACHE_HOME": directory + "/cache"])
        #expect(run.stdout == "+\n" && run.stderr.isEmpty && run.status == .exited(0), "\(run.stderr)")
    }

    /// An AVX-512 instruction under qemu: the hint no longer sends the user to `qemu-cpu max`,
    /// which is qemu's default already; a smaller model chosen by directive is pointed at it.
    @Test func theIllegalInstructionHintUnderQemuSaysWhatQemuCannotDo() throws {
        let directory = try Fixture.folder([
            "evex.asm": "global _start\n_start:\n    vpxord zmm0, zmm0, zmm0\n    mov eax, 60\n    syscall\n",
            "avx.asm": "; asmrun: qemu-cpu qemu64\nglobal _start\n_start:\n    vpaddd ymm0, ymm0, ymm0\n    mov eax, 60\n    syscall\n",
        ])
        defer { Files.removeTree(directory) }
        let evex = try Fixture.asmrun([directory + "/evex.asm", "--runner", "qemu"])
        #expect(evex.status == .exited(132))
        #expect(evex.stderr.contains("  hint: qemu-user does not emulate `vpxord zmm0,zmm0,zmm0` with any CPU model"), "\(evex.stderr)")
        #expect(!evex.stderr.contains("try `; asmrun: qemu-cpu max`"))
        let avx = try Fixture.asmrun([directory + "/avx.asm", "--runner", "qemu"])
        #expect(avx.stderr.contains("qemu's CPU model `qemu64` (`; asmrun: qemu-cpu qemu64`) does not have `vpaddd"), "\(avx.stderr)")
    }
}
