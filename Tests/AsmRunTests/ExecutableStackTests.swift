import Foundation
import Source
import Support
import Testing

@testable import Build
@testable import Processes

/// Whether the stack is executable, decided as GNU ld decides it, and the link command that
/// says so, without spawning anything.
@Suite struct ExecutableStackTests {
    @Test(arguments: [
        ([StackNote.missing], [String](), false),
        ([.nonExecutable, .missing], [], false),
        ([.missing, .executable], [], true),
        ([.missing], ["-z", "execstack"], true),
        ([.missing], ["-zexecstack"], true),
        ([.missing], ["-Wl,-z,execstack"], true),
        ([.missing], ["-Wl,-zexecstack"], true),
        ([.missing], ["-Xlinker", "-z", "-Xlinker", "execstack"], true),
        ([.executable], ["-z", "noexecstack"], false),
        ([.missing], ["-z", "execstack", "-z", "noexecstack"], false),
        ([.missing], ["-z", "noexecstack", "-lm", "-Wl,-z,execstack"], true),
        ([.missing], ["-z", "relro", "-lm"], false),
        ([.executable], ["-z", "relro"], true),
    ])
    func theLastWordOfTheFlagsElseTheNotes(notes: [StackNote], flags: [String], executable: Bool) {
        #expect(LinkDecision.executableStack(notes: notes, linkFlags: flags) == executable)
    }

    @Test func theLinkCommandSaysWhichStack() throws {
        let path = "samples/prog.asm"
        let program = Program(
            path: path, name: "prog", isFolder: false, assembly: [try SourceFile(path: path, text: "global _start\n_start: ret\n")])
        let tools = try Fixture.fakeToolchain(host: "x86_64", tools: ["nasm", "ld", "cc"])
        let plan = try BuildPlan(program: program, toolchain: tools, directory: "/out", prefix: "1-")
        let bin = tools.locator.searchPath[0]
        let objects = ["/out/1-0-prog.o"]
        #expect(
            try LinkDecision.command(.linker, plan, objects: objects, toolchain: tools, executableStack: true)
                == Command(
                    bin + "/ld",
                    ["-m", "elf_x86_64", "-z", "execstack", "--dependency-file=/out/1-link.d", "-o", "/out/1-prog", "/out/1-0-prog.o"]))
        // Otherwise the classic `ld`, which writes no stack header for objects without a note.
        #expect(
            try LinkDecision.command(.linker, plan, objects: objects, toolchain: tools, executableStack: false).arguments
                == ["-m", "elf_x86_64", "--dependency-file=/out/1-link.d", "-o", "/out/1-prog", "/out/1-0-prog.o"])
        let depends = "-Wl,--dependency-file=/out/1-link.d"
        #expect(
            try LinkDecision.command(.cDriver, plan, objects: objects, toolchain: tools, executableStack: true).arguments
                == ["-no-pie", "-Wl,-z,execstack", depends, "-o", "/out/1-prog", "/out/1-0-prog.o"])
        #expect(
            try LinkDecision.command(.cDriver, plan, objects: objects, toolchain: tools, executableStack: false).arguments
                == ["-no-pie", "-Wl,-z,noexecstack", depends, "-o", "/out/1-prog", "/out/1-0-prog.o"])
        #expect(
            try LinkDecision.command(.cDriverOwnStart, plan, objects: objects, toolchain: tools, executableStack: true).arguments
                == ["-no-pie", "-nostartfiles", "-Wl,-z,execstack", depends, "-o", "/out/1-prog", "/out/1-0-prog.o"])
    }
}

/// Code copied to the stack and called, end to end: it runs when the objects or the link flags
/// ask for an executable stack, natively and under qemu (which honours PT_GNU_STACK), and
/// otherwise crashes with a hint that names the stack.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct ExecutableStackRunTests {
    /// `mov eax, 7 / ret` written below the stack pointer and called; exits with eax - 7.
    static func stackCode(header: String = "", entry: String = "_start") -> String {
        """
        \(header)
        section .text
        global \(entry)
        \(entry):
                sub     rsp, 24
                mov     byte [rsp], 0xb8        ; mov eax, imm32
                mov     dword [rsp+1], 7
                mov     byte [rsp+5], 0xc3      ; ret
                mov     rax, rsp
                call    rax                     ; crash
                lea     edi, [rax-7]
                mov     eax, 60
                syscall

        """
    }

    static let stackCode32 = """
        bits 32
        section .text
        global _start
        _start:
                sub     esp, 16
                mov     byte [esp], 0xb8
                mov     dword [esp+1], 7
                mov     byte [esp+5], 0xc3
                mov     eax, esp
                call    eax                     ; crash
                lea     ebx, [eax-7]
                mov     eax, 1
                int     0x80

        """

    static let hint = "  hint: the program executed code on the stack, which is not executable: if it means to, link with `-z execstack`"

    enum Way: String, CaseIterable, Sendable {
        case native, qemu, arm
        var arguments: [String] { self == .arm ? [] : ["--runner", rawValue] }
        var environment: [String: String] { self == .arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:] }
    }

    static let ways = Fixture.nativeHost ? Way.allCases : [.qemu, .arm]

    private func run(_ text: String, _ arguments: [String] = [], way: Way) throws -> (stdout: String, stderr: String, status: Termination) {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(text, to: directory + "/stack.asm")
        return try Fixture.asmrun(["stack.asm", "--no-cache"] + arguments + way.arguments, in: directory, environment: way.environment)
    }

    @Test(arguments: ways) func theLinkFlagsOrADirectiveMakeTheStackExecutable(way: Way) throws {
        let flag = try run(Self.stackCode(), ["--link-flags", "-z execstack"], way: way)
        #expect(flag.status == .exited(0), "\(flag.stderr)")
        let directive = try run(Self.stackCode(header: "; asmrun: link-flags -z execstack"), way: way)
        #expect(directive.status == .exited(0), "\(directive.stderr)")
        #expect(directive.stderr == "")
    }

    @Test(arguments: ways) func anObjectWhoseNoteSaysExecMakesItExecutable(way: Way) throws {
        let own = try run(Self.stackCode(header: "section .note.GNU-stack noalloc exec nowrite progbits"), way: way)
        #expect(own.status == .exited(0), "\(own.stderr)")
        #expect(own.stderr == "")
        // Through the C driver too (`main`, returning eax - 7 from it instead of exiting).
        let libc = Self.stackCode(header: "section .note.GNU-stack noalloc exec nowrite progbits", entry: "main")
            .replacing(
                "        mov     eax, 60\n        syscall\n", with: "        mov     eax, edi\n        add     rsp, 24\n        ret\n")
        let driven = try run(libc, way: way)
        #expect(driven.status == .exited(0), "\(driven.stderr)")
    }

    /// A 32-bit program linked by the classic `ld` has no stack header, and Linux (and qemu-i386)
    /// then make its stack executable: it runs, as `nasm -f elf32 && ld -m elf_i386` gives it.
    @Test(arguments: ways) func aThirtyTwoBitProgramWithoutANoteHasTheClassicExecutableStack(way: Way) throws {
        let result = try run(Self.stackCode32, way: way)
        #expect(result.status == .exited(0), "\(result.stderr)")
    }

    @Test(arguments: ways) func withoutThemTheCrashSaysTheStackIsNotExecutable(way: Way) throws {
        // A 32-bit stack is not executable only when the flags say so (see above).
        for (text, thirtyTwoBit) in [(Self.stackCode(), false), (Self.stackCode32, true)] {
            let result = try run(text, thirtyTwoBit ? ["--link-flags", "-z noexecstack"] : [], way: way)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("asmrun: stack.asm:10: SIGSEGV (segmentation fault) executing address 0x") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix(Self.hint) }, "\(lines)")
            #expect(lines.filter { $0.hasPrefix("  hint: ") }.count == 1, "no other hint: \(lines)")
            #expect(result.status == .exited(139), "elf32: \(thirtyTwoBit)")
        }
    }

    /// Code in an `mmap`ed page without PROT_EXEC: not the stack, although qemu-user maps it
    /// just above the stack.
    @Test(arguments: ways) func codeInAnotherMappingIsNotTheStack(way: Way) throws {
        let text = """
            section .text
            global _start
            _start:
                    mov     eax, 9              ; mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)
                    xor     edi, edi
                    mov     esi, 4096
                    mov     edx, 3
                    mov     r10d, 0x22
                    mov     r8, -1
                    xor     r9d, r9d
                    syscall
                    mov     byte [rax], 0xc3
                    call    rax                 ; crash

            """
        let result = try run(text, way: way)
        #expect(result.stderr.hasPrefix("asmrun: stack.asm:13: SIGSEGV"), "\(result.stderr)")
        #expect(!result.stderr.contains("on the stack"), "\(result.stderr)")
    }
}
