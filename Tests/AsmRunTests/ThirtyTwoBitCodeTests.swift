import Foundation
import Processes
import Support
import Testing

/// 32-bit code as courses and books write it, without `bits 32` and with nothing nasm rejects as
/// 64-bit: cdecl functions reading their arguments at `[esp+4]`, arguments pushed and popped with
/// `add esp, N`, several sources of which one says `int 0x80`; and the crash report of such code
/// forced to elf64. Natively, under qemu, and as on an ARM host where the tools allow.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct ThirtyTwoBitCodeTests {
    /// A runner, with the environment it runs in.
    struct Setup: Sendable, CustomTestStringConvertible {
        var runner: String
        var environment: [String: String] = [:]
        var testDescription: String { environment.isEmpty ? runner : "\(runner) on a simulated aarch64 host" }
        var arguments: [String] { ["--runner", runner, "--no-cache"] }
    }

    /// The runners with this machine's own tools. A 32-bit libc program on an ARM host needs
    /// gcc-i686-linux-gnu, which `make deps` installs only there.
    private static let local = (Fixture.nativeHost ? [Setup(runner: "native")] : []) + [Setup(runner: "qemu")]
    private static let all = local + [Setup(runner: "auto", environment: ["ASMRUN_HOST_ARCH": "aarch64"])]

    /// cdecl as PC Assembly Language teaches it: arguments pushed right to left, read at
    /// `[esp+4]`, popped by the caller with `add esp, N`. Every line is also valid 64-bit code.
    private static let cdecl = """
        extern printf
        global main
        section .data
        fmt:    db "%d + %d", 10, 0
        section .text
        add2:                           ; int add2(int a, int b)
                mov     eax, [esp+4]
                add     eax, [esp+8]
                ret
        main:
                push    dword 7
                push    dword 5
                push    fmt
                call    printf
                add     esp, 12
                push    dword 7
                push    dword 5
                call    add2
                add     esp, 8
                ret                     ; exit status 12

        """

    /// The system calls hidden in an include (as SASM's io.inc does), so only the stack says 32-bit.
    private static let startProgram = (
        """
        %include "sys.inc"
        global _start
        _start:
                mov     ebp, esp
                push    dword 30
                push    dword 12
                call    add2
                add     esp, 8
                exit    eax
        add2:
                mov     eax, [esp+4]
                add     eax, [esp+8]
                ret

        """,
        "%macro exit 1\n        mov ebx, %1\n        mov eax, 1\n        int 0x80\n%endmacro\n"
    )

    private func folder(_ files: [String: String]) throws -> String {
        let directory = try Fixture.temporaryDirectory()
        for (name, text) in files { try Fixture.write(text, to: directory + "/" + name) }
        return directory
    }

    @Test(arguments: local) func aCdeclLibcProgramRunsWithoutOptions(setup: Setup) throws {
        let directory = try folder(["cdecl.asm": Self.cdecl])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["cdecl.asm"] + setup.arguments, in: directory, environment: setup.environment)
        #expect(result.stdout == "5 + 7\n", "\(result.stderr)")
        #expect(result.status == .exited(12))
        #expect(
            result.stderr
                == "asmrun: cdecl.asm: built as 32-bit code (elf32): it uses esp/ebp as the stack pointer (line 7) and no 64-bit register; say `bits 32` or `; asmrun: format elf32` to make it explicit\n"
        )
    }

    @Test(arguments: all) func aCdeclStartProgramRunsWithoutOptions(setup: Setup) throws {
        let directory = try folder(["start.asm": Self.startProgram.0, "sys.inc": Self.startProgram.1])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["start.asm"] + setup.arguments, in: directory, environment: setup.environment)
        #expect(result.status == .exited(42), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("asmrun: start.asm: built as 32-bit code (elf32): it uses esp/ebp as the stack pointer (line 4)"))
    }

    /// Two 32-bit sources of which only one says `int 0x80`: the other follows it, whichever is
    /// named first, as files or as a folder, and with `-f elf32` given.
    @Test(arguments: all) func onlyOneSourceSaysInt80(setup: Setup) throws {
        let directory = try folder([
            "main.asm": "global _start\nextern answer\n_start:\n    call answer\n    mov ebx, eax\n    mov eax, 1\n    int 0x80\n",
            "answer.asm": "global answer\nanswer:\n    mov eax, 42\n    ret\n",
        ])
        defer { Files.removeTree(directory) }
        for arguments in [["main.asm", "answer.asm"], ["answer.asm", "main.asm"], ["."], ["-f", "elf32", "main.asm", "answer.asm"]] {
            let result = try Fixture.asmrun(arguments + setup.arguments, in: directory, environment: setup.environment)
            #expect(result.status == .exited(42), "\(arguments): \(result.stderr)")
            let noted =
                result.stderr.contains("main.asm: built as 32-bit code (elf32) with ")
                && result.stderr.contains("answer.asm: it uses `int 0x80`")
            #expect(arguments.contains("-f") ? result.stderr == "" : noted, "\(arguments): \(result.stderr)")
        }
    }

    /// `-f` chooses the format of every source, even of sources whose own marks disagree; without
    /// it they are one line naming both, exit 125.
    @Test(arguments: all) func theCommandLineFormatAppliesToEverySource(setup: Setup) throws {
        let directory = try folder([
            "a.asm": "global _start\nextern quit\n_start:\n    lea eax, [esp]\n    call quit\n",
            "b.asm": "global quit\nquit:\n    mov eax, 60\n    mov edi, 42\n    syscall\n",
        ])
        defer { Files.removeTree(directory) }
        let refused = try Fixture.asmrun(["a.asm", "b.asm"] + setup.arguments, in: directory, environment: setup.environment)
        #expect(refused.status == .exited(125))
        #expect(
            refused.stderr.hasPrefix(
                "asmrun: b.asm:5: is 64-bit code (this line names a 64-bit register or `syscall`) but a.asm is 32-bit code"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let chosen = try Fixture.asmrun(["-f", "elf64", "a.asm", "b.asm"] + setup.arguments, in: directory, environment: setup.environment)
        #expect(chosen.status == .exited(42), "\(chosen.stderr)")
        #expect(chosen.stderr == "")
    }

    /// A 32-bit program forced to elf64 with `-f`: the fault address is the low half of rsp (gdb's
    /// `$_siginfo` natively, the operand and registers under qemu's gdbstub), and the hint says so.
    @Test(arguments: all) func thirtyTwoBitCodeForcedToElf64IsNamedInTheCrashHint(setup: Setup) throws {
        let directory = try folder(["start.asm": Self.startProgram.0, "sys.inc": Self.startProgram.1])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["start.asm", "-f", "elf64"] + setup.arguments, in: directory, environment: setup.environment)
        #expect(result.status == .exited(139))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("asmrun: start.asm:11: SIGSEGV (segmentation fault) reading address 0x") == true, "\(lines)")
        let hints = lines.filter { $0.hasPrefix("  hint: ") }
        #expect(hints.first?.hasPrefix("  hint: this looks like 32-bit code built as 64-bit") == true, "\(lines)")
        #expect(hints.first?.contains("`-f elf32`") == true)
        #expect(!result.stderr.contains("16-byte aligned"))
    }
}
