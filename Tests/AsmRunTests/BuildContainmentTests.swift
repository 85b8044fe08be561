import Foundation
import Glibc
import Testing

@testable import Sandbox
@testable import Support

/// Attacks on the build: a source nobody reviewed makes nasm read a file outside its suite's
/// folder (`incbin` by a computed name, which no scan of the source resolves) or the caller's
/// environment (`%!NAME`), and prints what it got. `asmrun test` builds it in a `BuildView`:
/// neither reaches the program, as root and as nobody.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"))
struct BuildContainmentTests {
    /// A program that prints the bytes of `FILE` (a macro the command line's `-D` cannot set:
    /// the path is put together from two halves) and the variable `ASMRUN_TEST_SECRET`.
    static func leak(_ file: String) -> String {
        let middle = file.index(file.startIndex, offsetBy: file.count / 2)
        return """
            %defstr HEAD \(file[..<middle])
            %defstr TAIL \(file[middle...])
            %strcat FILE HEAD, TAIL
            %defstr SECRET %!ASMRUN_TEST_SECRET
            section .data
            stolen: incbin FILE
                    db SECRET, 10
            length equ $ - stolen
            section .text
            global _start
            _start:
                mov eax, 1
                mov edi, 1
                lea rsi, [rel stolen]
                mov edx, length
                syscall
                mov eax, 60
                xor edi, edi
                syscall
            """
    }

    /// A suite with the leaking program and, beside it (outside the suite), a world-readable
    /// secret file; both readable by nobody.
    static func layout() throws -> (base: String, suite: String, secret: String) {
        let base = try Fixture.visibleDirectory()
        let secret = base + "/secret.txt"
        try Fixture.write("the-private-key\n", to: secret)
        let suite = base + "/suite"
        try Fixture.write(leak(secret), to: suite + "/leak.asm")
        try Fixture.write("[case default]\nstdout:\n| [..]\nstatus: exit 0\n", to: suite + "/leak.expect")
        for path in [base, suite, secret, suite + "/leak.asm", suite + "/leak.expect"] {
            chmod(path, Files.isDirectory(path) ? 0o755 : 0o644)
        }
        return (base, suite, secret)
    }

    @Test func aSourceReadsNeitherFilesOutsideItsSuiteNorTheCallersEnvironment() throws {
        let (base, suite, _) = try Self.layout()
        defer { Files.removeTree(base) }
        let (stdout, stderr, _) = try Fixture.asmrun(
            ["test", suite, "--no-cache", "-v", "--json", base + "/r.json"], environment: ["ASMRUN_TEST_SECRET": "hunter2"])
        let report = try String(contentsOfFile: base + "/r.json", encoding: .utf8)
        for text in [stdout, stderr, report] {
            #expect(!text.contains("the-private-key"), "the build read a file outside the suite: \(text)")
            #expect(!text.contains("hunter2"), "the build read asmrun's environment: \(text)")
        }
        // nasm itself says it cannot see the file.
        #expect(stdout.contains("unable to") && stdout.contains("secret.txt"), "\(stdout)")
    }

    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func nobodysBuildsAreContainedToo() throws {
        let (base, suite, _) = try Self.layout()
        defer { Files.removeTree(base) }
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)
        var environment = Fixture.environment
        environment["ASMRUN_TEST_SECRET"] = "hunter2"
        environment["HOME"] = base
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "test", suite, "--no-cache", "-v"],
                environment: environment),
            options: LaunchOptions())
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        #expect(!output.contains("the-private-key"), "the build read a file outside the suite: \(output)")
        #expect(!output.contains("hunter2"), "the build read asmrun's environment: \(output)")
        #expect(output.contains("unable to") && output.contains("secret.txt"), "\(output)")
    }

    /// `asmrun test alice bob`: alice's build reads bob's folder by a computed name, which no
    /// scan resolves (so no refusal stops it before nasm): each folder has a view of its own.
    @Test func aSubmissionsBuildCannotReadAClassmates() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        let secret = base + "/bob/answer.txt"
        try Fixture.write("bobs-own-work\n", to: secret)
        try Fixture.write(Self.leak(secret), to: base + "/alice/leak.asm")
        try Fixture.write("[case default]\nstdout:\n| [..]\nstatus: exit 0\n", to: base + "/alice/leak.expect")
        let (stdout, stderr, _) = try Fixture.asmrun(["test", base + "/alice", base + "/bob", "--no-cache", "-v"])
        #expect(!(stdout + stderr).contains("bobs-own-work"), "alice's build read bob's folder: \(stdout)\(stderr)")
        #expect(stdout.contains("unable to") && stdout.contains("answer.txt"), "\(stdout)")
    }

    @Test func theSuitesOwnFilesAndSystemHeadersStillBuild() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        let suite = base + "/suite"
        try Fixture.write("%include \"lib/io.inc\"\nsection .text\nglobal _start\n_start:\n    exit_with 3\n", to: suite + "/main.asm")
        try Fixture.write("%macro exit_with 1\n    mov eax, 60\n    mov edi, %1\n    syscall\n%endmacro\n", to: suite + "/lib/io.inc")
        try Fixture.write("[case default]\nstatus: exit 3\n", to: suite + "/main.expect")
        try Fixture.write(
            "#include <stdio.h>\n#include <string.h>\nint main(void) { puts(strchr(\"a-b\", '-')); return 0; }\n", to: suite + "/c/main.c")
        // A folder is one program: its C file's `main` with libc's headers, and its assembly.
        try Fixture.write("section .note.GNU-stack\n", to: suite + "/c/driver.asm")
        try Fixture.write("[case default]\nstdout:\n| -b\nstatus: exit 0\n", to: suite + "/c/c.expect")
        let (stdout, stderr, status) = try Fixture.asmrun(["test", suite, "--no-cache", "--runner", "native"], in: base)
        #expect(status == .exited(0), "\(stdout)\(stderr)")
        #expect(stdout.contains("2 passed, 0 failed"), "\(stdout)")
    }
}
