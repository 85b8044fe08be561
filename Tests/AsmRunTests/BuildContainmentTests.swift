import Foundation
import Glibc
import Processes
import Support
import Testing

/// Attacks on the build: a source nobody reviewed makes nasm read a file outside its suite's
/// folder (`incbin` by a computed name, which no scan of the source resolves) or the caller's
/// environment (`%!NAME`), and prints what it got. `asmrun test` builds it in a `BuildView`:
/// neither reaches the program, as root and as nobody.
@Suite(.tags(.integration), .needsTools)
struct BuildContainmentTests {
    /// A program that prints the bytes of the file at `file` (a name put together from two
    /// halves, which no scan of the source resolves and the command line's `-D` cannot set).
    static func fileLeak(_ file: String) -> String {
        let middle = file.index(file.startIndex, offsetBy: file.count / 2)
        return printer(
            """
            %defstr HEAD \(file[..<middle])
            %defstr TAIL \(file[middle...])
            %strcat FILE HEAD, TAIL
            section .data
            stolen: incbin FILE
            """)
    }

    /// A program that prints the variable `ASMRUN_TEST_SECRET` as nasm saw it.
    static let environmentLeak = printer(
        """
        %defstr SECRET %!ASMRUN_TEST_SECRET
        section .data
        stolen: db SECRET, 10
        """)

    /// `data` (defining `stolen`), then a program that writes `stolen` to stdout and exits 0.
    private static func printer(_ data: String) -> String {
        data + "\nlength equ $ - stolen\n" + Fixture.writer("stolen", count: "length")
    }

    /// A suite with both leaking programs and, beside it (outside the suite), a world-readable
    /// secret file; all readable by nobody.
    static func layout() throws -> (base: String, suite: String, secret: String) {
        let base = try Fixture.visibleDirectory()
        let secret = base + "/secret.txt"
        try Fixture.write("the-private-key\n", to: secret)
        let suite = base + "/suite"
        var paths = [base, suite, secret]
        for (name, text) in [("file", fileLeak(secret)), ("environment", environmentLeak)] {
            try Fixture.write(text, to: suite + "/\(name).asm")
            // An expectation no output meets: the verdict's diff shows whatever the program printed.
            try Fixture.write("[case default]\nstdout:\n| (nothing expected)\nstatus: exit 0\n", to: suite + "/\(name).expect")
            paths += [suite + "/\(name).asm", suite + "/\(name).expect"]
        }
        for path in paths { chmod(path, Files.isDirectory(path) ? 0o755 : 0o644) }
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

    /// As nobody; with `namespacesRefused` on a host that refuses user namespaces
    /// (`ASMRUN_USER_NAMESPACES=0`), where no view can be made: the build then sees what nobody
    /// sees (Documentation/containment.md), but its environment stays the fixed one.
    @Test(
        .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"),
        arguments: [false, true])
    func nobodysBuildsAreContainedToo(namespacesRefused: Bool) throws {
        let (base, suite, _) = try Self.layout()
        defer { Files.removeTree(base) }
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)
        var environment = Fixture.environment
        environment["ASMRUN_TEST_SECRET"] = "hunter2"
        environment["HOME"] = base
        if namespacesRefused { environment["ASMRUN_USER_NAMESPACES"] = "0" }
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "test", suite, "--no-cache", "-v"],
                environment: environment),
            options: LaunchOptions())
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        #expect(!output.contains("hunter2"), "the build read asmrun's environment: \(output)")
        // Without a view the file is read, as Documentation/containment.md says; with one, nasm cannot see it.
        #expect(output.contains("the-private-key") == namespacesRefused, "\(output)")
        #expect((output.contains("unable to") && output.contains("secret.txt")) == !namespacesRefused, "\(output)")
    }

    /// `asmrun test alice bob`: alice's build reads bob's folder by a computed name, which no
    /// scan resolves (so no refusal stops it before nasm): each folder has a view of its own,
    /// as nobody too, where the views share one user namespace (bob's folder built first).
    @Test func aSubmissionsBuildCannotReadAClassmates() throws { try classmates(asNobody: false) }

    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func nobodysSubmissionsBuildCannotReadAClassmates() throws { try classmates(asNobody: true) }

    private func classmates(asNobody: Bool) throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        let secret = base + "/bob/answer.txt"
        try Fixture.write("bobs-own-work\n", to: secret)
        try Fixture.write(Fixture.hello, to: base + "/bob/hello.asm")
        try Fixture.write(Self.fileLeak(secret), to: base + "/alice/leak.asm")
        try Fixture.write("[case default]\nstdout:\n| [..]\nstatus: exit 0\n", to: base + "/alice/leak.expect")
        for path in ["/bob", "/alice", "/bob/answer.txt", "/bob/hello.asm", "/alice/leak.asm", "/alice/leak.expect"] {
            chmod(base + path, Files.isDirectory(base + path) ? 0o755 : 0o644)
        }
        mkdir(base + "/tmp", 0o777)
        chmod(base + "/tmp", 0o777)
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Fixture.binary]
        let (stdout, stderr, _) = try Fixture.asmrun(
            (asNobody ? nobody : []) + ["test", base + "/bob", base + "/alice", "--no-cache", "-v", "-j", "1"],
            environment: asNobody ? ["HOME": base, "TMPDIR": base + "/tmp"] : [:],
            executable: asNobody ? Fixture.locator.find("setpriv")! : Fixture.binary)
        #expect(!(stdout + stderr).contains("bobs-own-work"), "alice's build read bob's folder: \(stdout)\(stderr)")
        #expect(stdout.contains("unable to") && stdout.contains("answer.txt"), "\(stdout)")
    }

    @Test func theSuitesOwnFilesAndSystemHeadersStillBuild() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        let suite = base + "/suite"
        // A folder is one program: its C file's `main` with libc's headers, and its assembly.
        try Fixture.write(
            [
                "main.asm": "%include \"lib/io.inc\"\nsection .text\nglobal _start\n_start:\n    exit_with 3\n",
                "lib/io.inc": "%macro exit_with 1\n    mov eax, 60\n    mov edi, %1\n    syscall\n%endmacro\n",
                "main.expect": "[case default]\nstatus: exit 3\n",
                "c/main.c": "#include <stdio.h>\n#include <string.h>\nint main(void) { puts(strchr(\"a-b\", '-')); return 0; }\n",
                "c/driver.asm": "section .note.GNU-stack\n",
                "c/c.expect": "[case default]\nstdout:\n| -b\nstatus: exit 0\n",
            ], in: suite)
        let (stdout, stderr, status) = try Fixture.asmrun(["test", suite, "--no-cache", "--runner", "native"], in: base)
        #expect(status == .exited(0), "\(stdout)\(stderr)")
        #expect(stdout.contains("2 passed, 0 failed"), "\(stdout)")
    }
}
