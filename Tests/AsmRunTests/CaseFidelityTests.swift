import Foundation
import Glibc
import Processes
import Support
import Testing

/// What a case gets from its surroundings is the same natively and under qemu, whoever runs the
/// suite: a verdict is the hardware's, not the caller's shell's or the emulator's.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and qemu-user"))
struct CaseFidelityTests {
    enum Way: String, CaseIterable, Sendable {
        case native, qemu, arm
        var arguments: [String] { self == .arm ? [] : ["--runner", rawValue] }
        var environment: [String: String] { self == .arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:] }
    }

    static let ways = Fixture.nativeHost ? Way.allCases : [.qemu, .arm]

    /// Recurses `depth` calls deep, 16 bytes of stack each, then exits 0.
    static func recursion(depth: Int) -> String {
        """
        global _start
        section .text
        _start:
            mov rcx, \(depth)
            call down
            mov eax, 60
            xor edi, edi
            syscall
        down:
            push rbp
            dec rcx
            jz .done
            call down
        .done:
            pop rbp
            ret

        """
    }

    /// The caller's hard stack limit allows 64 MiB.
    static let stackMayGrow: Bool = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit) == 0 else { return false }
        return limit.rlim_max == rlim_t.max || limit.rlim_max >= 64 << 20
    }()

    /// A case's stack is 8 MiB (Linux's default, and qemu's guest stack) whatever the caller's
    /// `ulimit -s`: a 16 MB recursion crashes and a 4.8 MB one does not, natively and under qemu,
    /// from a shell whose limit is 64 MiB (which qemu would otherwise give its guest too).
    @Test(.enabled(if: stackMayGrow, "needs a hard stack limit of 64 MiB or more"), arguments: ways)
    func theStackIsEightMebibytesWhateverTheCallersLimit(way: Way) throws {
        let directory = try Fixture.folder([
            "deep.asm": Self.recursion(depth: 1_000_000), "deep.expect": "[case default]\nstatus: signal SIGSEGV\n",
            "shallow.asm": Self.recursion(depth: 300_000), "shallow.expect": "[case default]\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(
            ["-c", "ulimit -s 65536 && exec \"$0\" \"$@\"", Fixture.binary, "test", "--no-checks", "."] + way.arguments, in: directory,
            environment: way.environment, executable: "/bin/sh")
        #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
    }
}

extension CaseFidelityTests {
    /// A case's environment reaches the program in the order a native program gets it (by name),
    /// under qemu too, which would reverse it (Tests/Conformance/env_order.asm); a case's own
    /// variables join it in their place, and qemu reads none of them as its own settings.
    @Test(arguments: ways)
    func theEnvironmentIsInTheNativeOrder(way: Way) throws {
        let probe = try String(contentsOfFile: Fixture.packageRoot + "/Tests/Conformance/env_order.asm", encoding: .utf8)
        let directory = try Fixture.folder([
            "env_order.asm": probe,
            "probe.inc": try String(contentsOfFile: Fixture.packageRoot + "/Tests/Conformance/probe.inc", encoding: .utf8),
            "env_order.expect": """
            [case default]
            stdout:
            | entries: 7
            | first: HOME
            | last: TMPDIR
            status: exit 0

            [case more]
            env: AAA=1
            env: QEMU_STRACE=1
            env: ZZZ=2
            stdout:
            | entries: 10
            | first: AAA
            | last: ZZZ
            status: exit 0

            """,
        ])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(
            ["test", "--no-checks", "env_order.asm"] + way.arguments, in: directory, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
    }
}

extension CaseFidelityTests {
    /// A program's `limit memory` is its own, not its emulator's: qemu gets the overhead the
    /// defaults give it on top, so a program that runs within its limit natively runs under qemu
    /// (qemu-i386 reserves 4 GiB up front; qemu-x86_64 needs more than 64 MiB for itself).
    @Test(arguments: ways)
    func aMemoryLimitLeavesTheEmulatorItsOverhead(way: Way) throws {
        let expect = "[case default]\nstdout:\n| hello\nstatus: exit 0\n"
        let directory = try Fixture.folder([
            "hello.asm": "; asmrun: limit memory 64M\n" + Fixture.hello, "hello.expect": expect,
            "hello32.asm": "; asmrun: limit memory 512M\n" + Fixture.writer32("msg", count: "6") + "section .data\nmsg: db \"hello\", 10\n",
            "hello32.expect": expect,
        ])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["test", "--no-checks", "."] + way.arguments, in: directory, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
    }
}

extension CaseFidelityTests {
    /// `limit processes N` counts the program's processes, not its emulator's threads: qemu-user
    /// runs one more thread in each process, so a program that may fork twice with N = 4
    /// natively may under qemu too.
    @Test(arguments: ways)
    func aProcessLimitCountsTheProgramsProcesses(way: Way) throws {
        let directory = try Fixture.folder([
            "forks.asm": """
            ; asmrun: limit processes 4
            global _start
            section .text
            _start:
                mov r12d, 2
            .fork:
                mov eax, 57                 ; fork
                syscall
                test rax, rax
                jz .child
                lea rsi, [rel ok]
                mov edx, 8
                jns .say
                lea rsi, [rel failed]
                mov edx, 12
            .say:
                mov eax, 1
                mov edi, 1
                syscall
                dec r12d
                jnz .fork
            .child:
                mov eax, 60
                xor edi, edi
                syscall
            section .data
            ok: db "fork ok", 10
            failed: db "fork failed", 10

            """,
            "forks.expect": "[case default]\nstdout:\n| fork ok\n| fork ok\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["test", "--no-checks", "."] + way.arguments, in: directory, environment: way.environment)
        #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result.stdout)")
    }
}
