import Support
import Testing

@testable import Source

/// The syscall check on small programs: each read of rcx or r11 after a syscall is found at its
/// line, and code that writes them first (or saves them around the syscall) is left alone.
struct SyscallClobberCheckTests {
    /// The warnings for one source, as `line: message`.
    private func warnings(_ text: String, path: String = "t.asm") -> [EmulationWarning] {
        SyscallClobberCheck.warnings(sources: [(path, text)])
    }

    private func lines(_ text: String) -> [Int] { warnings(text).map(\.line) }

    private static let write = """
        mov eax, 1
        mov edi, 1
        lea rsi, [rel msg]
        mov edx, 3
        """

    @Test func loopCounterInRCX() {
        let found = warnings(
            """
            _start:
                mov rcx, 3
            top:
                mov eax, 1
                syscall
                loop top
                mov eax, 60
                syscall
            """, path: "loop.asm")
        #expect(found.count == 1)
        let warning = found.first
        #expect(warning?.line == 6)
        #expect(
            warning?.rendered
                == "loop.asm:6: warning: rcx is read here by `loop` after the syscall at loop.asm:5, which overwrites it on x86 hardware "
                + "(with the return address); qemu leaves it, so this passes under emulation and fails natively: keep the counter "
                + "in another register or save it around the syscall")
        #expect(warning.map { EmulationWarning.parse($0.rendered[...]) == $0 } == true)
    }

    @Test func decrementAndBranch() {
        #expect(lines("_start:\nmov ecx, 5\n.l: mov eax, 1\nsyscall\ndec rcx\njnz .l\nmov eax, 60\nsyscall") == [5])
    }

    @Test func counterSavedAroundTheSyscallOrWrittenFirst() {
        #expect(lines("_start:\nmov ecx, 5\n.l: push rcx\nmov eax, 1\nsyscall\npop rcx\nloop .l\nmov eax, 60\nsyscall").isEmpty)
        #expect(lines("_start:\n.l: mov eax, 1\nsyscall\nmov rcx, 4\ndec rcx\njnz .l\nmov eax, 60\nsyscall").isEmpty)
        #expect(lines("_start:\nmov eax, 0\nsyscall\nxor ecx, ecx\nadd rcx, 1\nmov eax, 60\nsyscall").isEmpty)
    }

    @Test func shiftByCLAndPartialWrites() {
        let shift = warnings("_start:\nmov eax, 39\nsyscall\nshl rax, cl\nmov eax, 60\nsyscall")
        #expect(shift.map(\.line) == [4])
        #expect(shift.first?.message.hasPrefix("cl is read here after the syscall at t.asm:3, which overwrites rcx") == true)
        // The low byte written: `cl` is the program's again; the rest of rcx is not.
        #expect(lines("_start:\nmov eax, 39\nsyscall\nmov cl, 3\nshl rax, cl\nmov eax, 60\nsyscall").isEmpty)
        #expect(lines("_start:\nmov eax, 39\nsyscall\nmov cx, 3\nl: loop l\nmov eax, 60\nsyscall") == [5])
    }

    @Test func implicitReads() {
        let copy = warnings("_start:\nmov eax, 0\nsyscall\nrep movsb\nmov eax, 60\nsyscall")
        #expect(copy.first?.message.hasPrefix("rcx is read here by `rep movsb` after") == true)
        #expect(lines("_start:\nmov eax, 0\nsyscall\njrcxz done\ndone: mov eax, 60\nsyscall") == [4])
        #expect(lines("_start:\nmov eax, 0\nsyscall\nmov eax, 7\ncpuid\nmov eax, 60\nsyscall") == [5])
        #expect(lines("_start:\nmov eax, 0\nsyscall\nmov eax, 1\ncpuid\nmov eax, 60\nsyscall").isEmpty)
        #expect(lines("_start:\nmov eax, 0\nsyscall\nmov al, [rsi + rcx*1]\nmov eax, 60\nsyscall") == [4])
        #expect(lines("_start:\nmov eax, 0\nsyscall\nrep ret").isEmpty)
    }

    @Test func r11ExitStatus() {
        let found = warnings("_start:\nmov r11, 42\nmov eax, 39\nsyscall\nmov rdi, r11\nmov eax, 60\nsyscall", path: "r11.asm")
        #expect(found.map(\.line) == [5])
        #expect(
            found.first?.message
                == "r11 is read here after the syscall at r11.asm:4; r11 holds RFLAGS after a syscall on hardware, and qemu leaves "
                + "its old value, so this passes under emulation and fails natively: keep the value in another register or save "
                + "it around the syscall")
        let narrow = warnings("_start:\nmov eax, 39\nsyscall\nmov edi, r11d\nmov eax, 60\nsyscall")
        #expect(narrow.first?.message.hasPrefix("r11d is read here after the syscall at t.asm:3;") == true)
        #expect(lines("_start:\nmov eax, 39\nsyscall\npush r11\npop rdi\nmov eax, 60\nsyscall") == [4])
        #expect(lines("_start:\nmov eax, 39\nsyscall\nmov r11, rax\nmov rdi, r11\nmov eax, 60\nsyscall").isEmpty)
    }

    @Test func savingIsNoReadUntilTheValueIsUsed() {
        // Saved and restored, then overwritten: the clobbered value is never used.
        let saved = "_start:\nmov eax, 0\nsyscall\npush rcx\npush r11\ncall f\npop r11\npop rcx\nxor ecx, ecx\nmov eax, 60\nsyscall\nf: ret"
        #expect(lines(saved).isEmpty)
        // Restored, then used: the use is the line to fix.
        #expect(lines(saved.replacing("xor ecx, ecx", with: "dec rcx")) == [9])
        // Popped into another register: the push is where the value escapes.
        #expect(lines("_start:\nmov eax, 0\nsyscall\npush rcx\npop rdx\nmov eax, 60\nsyscall") == [4])
        // Pushed by address: that is a read.
        #expect(lines("_start:\nmov eax, 0\nsyscall\npush qword [rcx]\nmov eax, 60\nsyscall") == [4])
    }

    @Test func syscallInACalledFunction() {
        let text = """
            _start:
                mov rcx, 3
            again:
                call print
                loop again
                mov eax, 60
                xor edi, edi
                syscall
            print:
                mov eax, 1
                syscall
                ret
            """
        let found = warnings(text)
        #expect(found.map(\.line) == [5])
        #expect(found.first?.message.contains("after the syscall at t.asm:11, returned to after the call at t.asm:4,") == true)
        // Saved by the caller: nothing to say.
        #expect(lines(text.replacing("    call print\n", with: "    push rcx\n    call print\n    pop rcx\n")).isEmpty)
    }

    @Test func followedCallsAndTheirReturns() {
        // The function called after the syscall reads rcx (a fourth argument never set).
        #expect(lines("_start:\nmov eax, 0\nsyscall\ncall use\nmov eax, 60\nsyscall\nuse:\nmov [rdi], rcx\nret") == [8])
        // It writes rcx first, and the caller's read comes after that.
        #expect(lines("_start:\nmov eax, 0\nsyscall\ncall set\ndec rcx\nmov eax, 60\nsyscall\nset:\nmov ecx, 9\nret").isEmpty)
        // An external function: whatever it leaves in rcx is not the syscall's.
        #expect(lines("extern puts\n_start:\nmov eax, 0\nsyscall\ncall puts\ndec rcx\nmov eax, 60\nsyscall").isEmpty)
        // An indirect jump: not followed.
        #expect(lines("_start:\nmov eax, 0\nsyscall\njmp [table]\ndec rcx").isEmpty)
    }

    @Test func exitSyscallsEndTheCode() {
        let text = """
            SYS_EXIT equ 60
            _start:
                mov eax, 1
                syscall
                mov eax, SYS_EXIT
                syscall
            helper:
                mov rax, rcx
                ret
            """
        #expect(lines(text).isEmpty)
        // Falling into a function whose entry is called: the code before it ended.
        #expect(lines("_start:\ncall f\nmov rdi, rax\nmov eax, edx\nsyscall\nf:\nmov rax, rcx\nret").isEmpty)
        #expect(lines("_start:\nmov eax, 1\nsyscall\nsection .data\nmsg: db 'x'").isEmpty)
    }

    @Test func controlFlow() {
        // Both ways of a branch: one writes rcx, the other reads it.
        #expect(lines("_start:\nmov eax, 0\nsyscall\ntest rax, rax\njs .bad\nxor ecx, ecx\n.bad: inc rcx\nmov eax, 60\nsyscall") == [7])
        // A jump over the read.
        #expect(lines("_start:\nmov eax, 0\nsyscall\njmp .over\ninc rcx\n.over: xor ecx, ecx\nmov eax, 60\nsyscall").isEmpty)
        // The back edge of a loop whose top reads rcx.
        let loop = "_start:\nxor ecx, ecx\ntop: cmp rcx, 10\njge done\nmov eax, 1\nsyscall\njmp top\ndone: mov eax, 60\nsyscall"
        #expect(lines(loop) == [3])
    }

    @Test func aReadReachedFromSeveralSyscallsIsReportedOnce() {
        let text = "_start:\nmov eax, 0\nsyscall\njmp join\nother:\nmov eax, 1\nsyscall\njoin:\ndec rcx\nmov eax, 60\nsyscall"
        let found = warnings(text)
        #expect(found.map(\.line) == [9])
        #expect(found.first?.message.contains("after the syscall at t.asm:3,") == true)
    }

    @Test func localLabelsBelongToTheirFunction() {
        let text = """
            _start:
                mov ecx, 3
            .loop:
                mov eax, 1
                syscall
                jmp other.loop
            other:
                xor ecx, ecx
            .loop:
                dec rcx
                jnz .loop
                mov eax, 60
                syscall
            """
        // `other` writes rcx before its loop; `other.loop` is past that; `.loop` is `_start.loop`.
        #expect(lines(text.replacing("jmp other.loop", with: "jmp other")).isEmpty)
        #expect(lines(text) == [10])
        #expect(lines(text.replacing("jmp other.loop", with: "jmp .loop")).isEmpty)
    }

    @Test func macros() {
        let text = """
            %macro print 2
                mov eax, 1
                mov edi, 1
                mov rsi, %1
                mov rdx, %2
                syscall
            %endmacro
            %macro next 1
                loop %1
            %endmacro
            _start:
                mov rcx, 3
            top:
                print msg, 3
                next top
                mov eax, 60
                syscall
            """
        let found = warnings(text)
        #expect(found.map(\.line) == [15])
        #expect(
            found.first?.message.hasPrefix("rcx is read here by `loop` (in macro `next`) after the syscall at t.asm:14 (in macro `print`)")
                == true)
        #expect(lines(text.replacing("    next top", with: "    mov ecx, 1\n    next top")).isEmpty)
    }

    @Test func macroLabelsParametersAndRepetition() {
        let text = """
            %macro multipush 1-*
            %rep %0
                push %1
            %rotate 1
            %endrep
            %endmacro
            %macro multipop 1-*
            %rep %0
            %rotate -1
                pop %1
            %endrep
            %endmacro
            %macro write 0
                multipush rcx, r11
                mov eax, 1
                syscall
                multipop rcx, r11
            %%done:
            %endmacro
            _start:
                mov ecx, 3
            top:
                write
                loop top
                mov eax, 60
                syscall
            """
        #expect(lines(text).isEmpty)
        #expect(lines(text.replacing("    multipop rcx, r11\n", with: "    multipop r11\n")) == [24])
    }

    @Test func preprocessorConditionsAndDefines() {
        #expect(lines("%define counter rcx\n_start:\nmov eax, 0\nsyscall\ndec counter\nmov eax, 60\nsyscall") == [5])
        #expect(lines("_start:\nmov eax, 0\nsyscall\n%if 0\ndec rcx\n%endif\nxor ecx, ecx\nmov eax, 60\nsyscall").isEmpty)
        #expect(lines("%define DEBUG\n_start:\nmov eax, 0\nsyscall\n%ifdef DEBUG\ndec rcx\n%endif\nmov eax, 60\nsyscall") == [6])
        #expect(lines("_start:\nmov eax, 0\nsyscall\n%ifdef DEBUG\ndec rcx\n%else\nxor ecx, ecx\n%endif\nmov eax, 60\nsyscall").isEmpty)
        // A condition the check cannot decide hides its branches: nothing is followed through it.
        #expect(lines("_start:\nmov eax, 0\nsyscall\n%if FOO(1)\ndec rcx\n%endif\ndec rcx").isEmpty)
        let format = "_start:\nmov eax, 0\nsyscall\n%ifidn __OUTPUT_FORMAT__, elf64\ndec rcx\n%endif\nmov eax, 60\nsyscall"
        #expect(lines(format) == [5])
    }

    @Test func syntaxCommentsCaseAndLineEndings() {
        let text =
            "_start:\r\n  MOV RCX, 3 ; rcx counts\r\nTop: MOV EAX, 1\r\n  SYSCALL\r\n  mov rsi, ';' ; loop Top\r\n  LOOP Top\r\n  mov eax, 60\r\n  syscall\r\n"
        #expect(lines(text) == [6])
        // A typo nasm takes for a label is no syscall.
        #expect(lines("_start:\nmov eax, 60\nxor edi, edi\nsycall\ndec rcx").isEmpty)
        // 32-bit system calls leave rcx alone.
        #expect(lines("_start:\nmov eax, 4\nint 0x80\nloop _start").isEmpty)
        #expect(lines("msg db 'syscall', 0\nlen equ $ - msg\n_start: mov rcx, len\nmov eax, 60\nsyscall").isEmpty)
    }

    @Test func severalSources() {
        let main = "global _start\nextern print\n_start:\nmov ecx, 3\ntop: call print\nloop top\nmov eax, 60\nsyscall"
        let helper = "global print\nprint:\nmov eax, 1\nsyscall\nret"
        let found = SyscallClobberCheck.warnings(sources: [("main.asm", main), ("print.asm", helper)])
        #expect(found.map { String($0.rendered.prefix(40)) } == ["main.asm:6: warning: rcx is read here by"])
        #expect(found.first?.message.contains("after the syscall at print.asm:4, returned to after the call at main.asm:5") == true)
    }

    @Test func recognisesItsWarningsAmongOthers() {
        let output = """
            a.asm:3: warning: label alone on a line without a colon might be in error [-w+label-orphan]
            a.asm:9: warning: rcx is read here after the syscall at a.asm:8, which overwrites it; so this passes under emulation and fails natively: x
            a.asm:12: warning: user says under emulation and fails natively [-w+user]
            """
        #expect(EmulationWarning.all(in: output).map(\.line) == [9])
        #expect(EmulationWarning.removing(from: output).split(separator: "\n").count == 2)
    }
}
