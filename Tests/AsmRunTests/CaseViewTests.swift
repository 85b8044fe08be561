import Foundation
import Glibc
import Processes
import Support
import Testing

/// A case with namespaces of its own works in one fixed folder, `/tmp/asmrun-case`
/// (`Confinement.caseView`), which its HOME, TMPDIR and PWD name too: a program printing its
/// working directory gives the same output in every run and every worker, natively and under
/// qemu, with wardens or an init per case, as root's cases and as nobody's.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and qemu-user"))
struct CaseViewTests {
    /// Prints getcwd, then the environment, a line each.
    static let program = """
        global _start
        section .bss
        buffer: resb 4096
        section .data
        newline: db 10
        section .text
        _start:
            mov eax, 79
            lea rdi, [rel buffer]
            mov esi, 4096
            syscall
            lea rsi, [rel buffer]
            call line
            mov rax, [rsp]
            lea rbx, [rsp + 8*rax + 16]
        .next:
            mov rsi, [rbx]
            test rsi, rsi
            jz .done
            call line
            add rbx, 8
            jmp .next
        .done:
            mov eax, 60
            xor edi, edi
            syscall
        line:
            mov rdx, rsi
        .scan:
            cmp byte [rdx], 0
            je .write
            inc rdx
            jmp .scan
        .write:
            sub rdx, rsi
            mov eax, 1
            mov edi, 1
            syscall
            mov eax, 1
            mov edi, 1
            lea rsi, [rel newline]
            mov edx, 1
            syscall
            ret

        """

    static let expectation = """
        [case default]
        stdout:
        | /tmp/asmrun-case
        | HOME=/tmp/asmrun-case
        | LANG=C
        | LC_ALL=C
        | PATH=/usr/local/bin:/usr/bin:/bin
        | PWD=/tmp/asmrun-case
        | TERM=dumb
        | TMPDIR=/tmp/asmrun-case
        status: exit 0

        """

    /// Both runners side by side in two workers (qemu alone as on ARM).
    static func runners(arm: Bool) -> [String] {
        arm ? ["-j", "2"] : ["-j", "2", "--runner", Fixture.nativeHost ? "native,qemu" : "qemu"]
    }

    static func environment(arm: Bool, wardens: Bool) -> [String: String] {
        var environment = arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:]
        if !wardens { environment["ASMRUN_WARDENS"] = "0" }
        return environment
    }

    /// What `--update` records passes again, twice, with no divergence between the runners.
    @Test(arguments: [false, true], [true, false])
    func theWorkingDirectoryIsTheSameInEveryRun(arm: Bool, wardens: Bool) throws {
        let directory = try Fixture.folder(["pwd.asm": Self.program])
        defer { Files.removeTree(directory) }
        let environment = Self.environment(arm: arm, wardens: wardens)
        let update = try Fixture.asmrun(["test", "--no-checks", "pwd.asm", "--update"], in: directory, environment: environment)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        let recorded = try String(contentsOfFile: directory + "/pwd.expect", encoding: .utf8)
        #expect(recorded.hasSuffix(Self.expectation), "\(recorded)")
        for _ in 0..<2 {
            let result = try Fixture.asmrun(
                ["test", "--no-checks", "pwd.asm"] + Self.runners(arm: arm), in: directory, environment: environment)
            #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
        }
    }

    /// asmrun run by nobody (cases in an unprivileged user namespace), its scratch folder under
    /// /tmp, which the case's view covers.
    @Test(
        .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"),
        arguments: [false, true], [true, false])
    func nobodysCasesWorkThereToo(arm: Bool, wardens: Bool) throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write(Self.program, to: base + "/pwd.asm")
        try Fixture.write(Self.expectation, to: base + "/pwd.expect")
        chmod(base + "/pwd.asm", 0o644)
        chmod(base + "/pwd.expect", 0o644)
        var template = Array("/tmp/asmrun-case-view-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let scratch = String(cString: made)
        defer { Files.removeTree(scratch) }
        chmod(scratch, 0o777)
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Fixture.binary]
        var environment = Self.environment(arm: arm, wardens: wardens)
        environment["HOME"] = base
        environment["TMPDIR"] = scratch
        for _ in 0..<2 {
            let result = try Fixture.asmrun(
                nobody + ["test", "--no-checks", "--no-cache", "pwd.asm"] + Self.runners(arm: arm), in: base,
                environment: environment, executable: Fixture.locator.find("setpriv")!)
            #expect(result.status == .exited(0), "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
        }
    }
}
