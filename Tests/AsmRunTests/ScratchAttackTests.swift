import Foundation
import Glibc
import Processes
import Support
import Testing

/// Issue 30, item 6: one case wrote 916 MB into the RAM-backed scratch (/dev/shm) with the
/// default limits, 64 MiB per file, as many files as it liked. Each worker's folder is now a
/// tmpfs of `--scratch-limit` bytes and 16384 files and folders: the case that fills it fails
/// with one line, and the next case of the same worker starts with an empty folder.
@Suite(
    .tags(.integration), .needsTools,
    .enabled(if: Fixture.rootMayIsolate, "needs root with namespaces (a warden's folder is a tmpfs in its mount namespace)"))
struct ScratchAttackTests {
    static let runners = Fixture.nativeHost ? "native,qemu" : "qemu"

    /// Creates `files` files of `bytes` bytes each (`a00000`, `a00001`, …) in its folder and exits
    /// 0, or exits 1 at the first that cannot be made or written whole.
    static func writer(files: Int, bytes: Int) -> String {
        """
        global _start
        section .bss
        buffer: resb \(max(bytes, 1))
        section .data
        name: db "a00000", 0
        section .text
        _start:
            mov r12, \(files)
        next:
            test r12, r12
            jz done
            dec r12
            mov eax, 2
            lea rdi, [rel name]
            mov esi, 0x41
            mov edx, 0o644
            syscall
            test eax, eax
            js failed
            mov r13d, eax
            mov eax, 1
            mov edi, r13d
            lea rsi, [rel buffer]
            mov edx, \(bytes)
            syscall
            cmp rax, \(bytes)
            jne failed
            mov eax, 3
            mov edi, r13d
            syscall
            lea rdi, [rel name + 5]
        carry:
            inc byte [rdi]
            cmp byte [rdi], '9'
            jbe next
            mov byte [rdi], '0'
            dec rdi
            jmp carry
        done:
            mov eax, 60
            xor edi, edi
            syscall
        failed:
            mov eax, 60
            mov edi, 1
            syscall

        """
    }

    /// `a_bomb` (its files past the limit), then `b_after`: 12 MiB in 3 files, which fit only
    /// in an emptied folder of 16 MiB. As root, and as nobody where setpriv is there.
    private func suite(bomb: String) throws -> String {
        let directory = try Fixture.visibleDirectory()
        try Fixture.write(bomb, to: directory + "/suite/a_bomb.asm")
        try Fixture.write(Self.writer(files: 3, bytes: 4 << 20), to: directory + "/suite/b_after.asm")
        // b_after exits 0 only if it wrote all three: its 12 MiB would not fit beside the bomb's.
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/suite/b_after.expect")
        try Fixture.write("[case default]\nstatus: any\n", to: directory + "/suite/a_bomb.expect")
        return directory
    }

    private func check(_ result: (stdout: String, stderr: String, status: Termination), _ directory: String) {
        let runners = Self.runners.split(separator: ",")
        #expect(result.status == .exited(1), "\(result.stdout)\(result.stderr)")
        let list = Self.runners.replacingOccurrences(of: ",", with: ", ")
        #expect(
            result.stdout.contains(
                "FAIL  suite/a_bomb.asm:default [\(list)]: scratch limit exceeded: the program filled its folder (16 MiB"),
            "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(runners.count) passed, \(runners.count) failed"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL  suite/b_after.asm"), "the next case had an empty folder: \(result.stdout)")
    }

    @Test(arguments: ["bytes", "files"])
    func aCaseCannotFillTheScratchBeyondItsFolder(kind: String) throws {
        // 300 MB in 4 MiB files (the measurement's kind), or 20,000 empty files.
        let bomb = kind == "bytes" ? Self.writer(files: 75, bytes: 4 << 20) : Self.writer(files: 20_000, bytes: 0)
        let directory = try suite(bomb: bomb)
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(
            ["test", "suite", "--runner", Self.runners, "--scratch-limit", "16M", "--no-cache", "-j", "1"], in: directory)
        check(result, directory)
    }

    @Test(.enabled(if: Fixture.locator.find("setpriv") != nil, "needs setpriv to run asmrun as nobody"))
    func nobodysCasesAreBoundedToo() throws {
        let directory = try suite(bomb: Self.writer(files: 75, bytes: 4 << 20))
        defer { Files.removeTree(directory) }
        try ExecutableFile.copy(Fixture.binary, to: directory + "/asmrun")
        mkdir(directory + "/tmp", 0o755)
        for path in ["", "/tmp", "/suite"]
            + (try FileManager.default.contentsOfDirectory(atPath: directory + "/suite")).map({ "/suite/" + $0 })
        {
            chown(directory + path, 65534, 65534)
        }
        let result = try Fixture.asmrun(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", directory + "/asmrun", "test", "suite", "--runner", Self.runners,
                "--scratch-limit", "16M", "--no-cache", "-j", "1",
            ], in: directory, environment: ["HOME": directory, "TMPDIR": directory + "/tmp"],
            executable: Fixture.locator.find("setpriv")!)
        check(result, directory)
    }
}
