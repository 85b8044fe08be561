import Build
import CLI
import Foundation
import Glibc
import Processes
import Session
import Support
import Testing

/// Issue 30: `asmrun test` had no `--c-flags` or `--link-flags`, so a trusted suite needing a
/// flag the allow-list refuses to sources (a library outside the program's folder, `-include`)
/// had no way round. The command line's flags are the user's own: not checked, after every
/// program's own, part of the cache keys, and what they name is shown to the contained build.
@Suite struct CallerFlagsTests {
    @Test func theOptionsAreSplitLikeAShellWouldAndAddUp() throws {
        let options = try TestPlan(parsing: [
            "suite", "--c-flags", "-O2 -DNAME='a b'", "--link-flags", "-lm", "--link-flags", "-static",
        ])
        #expect(options.callerFlags == CallerFlags(compile: ["-O2", "-DNAME=a b"], link: ["-lm", "-static"]))
        #expect(try TestPlan(parsing: ["suite"]).callerFlags == CallerFlags())
    }

    @Test(arguments: ["--c-flags", "--link-flags"])
    func unbalancedQuotesAreOneLineNamingTheOption(option: String) {
        #expect {
            try TestPlan(parsing: ["suite", option, "-DX='open"])
        } throws: { error in
            "\(error)".hasPrefix(option + ":")
        }
        #expect(throws: UsageError.self) { try TestPlan(parsing: ["suite", option]) }
    }

    @Test func theFilesAndFoldersTheFlagsNameAreFound() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("#define VALUE 3\n", to: directory + "/inc/value.h")
        let flags = CallerFlags(
            compile: ["-O2", "-include", directory + "/inc/value.h", "-I" + directory + "/inc", "-Wall"],
            link: ["-Wl,-rpath," + directory + "/lib," + directory + "/inc", "--sysroot=" + directory, "-L/no/such/folder"])
        #expect(flags.namedPaths == [directory + "/inc/value.h", directory + "/inc", directory])
    }
}

/// Real builds with the command line's flags, contained (as asmrun test builds every suite).
@Suite(.tags(.integration), .needsTools)
struct CallerFlagsBuildTests {
    /// A library outside the suite (`-L` there: a source may not name it) gives `greet`.
    @Test func aLibraryOutsideTheSuiteLinksFromTheCommandLineOnly() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write(
            "global greet\nsection .text\ngreet:\n    mov eax, 60\n    mov edi, 7\n    syscall\n", to: base + "/lib/greet.asm")
        let tools = PosixLauncher(path: Fixture.environment["PATH"])
        for command in [
            Command("nasm", ["-f", "elf64", "-o", base + "/lib/greet.o", base + "/lib/greet.asm"]),
            Command("ar", ["rcs", base + "/lib/libgreet.a", base + "/lib/greet.o"]),
        ] {
            #expect(try tools.run(command, options: LaunchOptions()).termination == .exited(0))
        }
        try Fixture.write("extern greet\nglobal _start\nsection .text\n_start:\n    call greet\n", to: base + "/suite/main.asm")
        try Fixture.write("[case default]\nstatus: exit 7\n", to: base + "/suite/main.expect")
        let flags = ["--link-flags", "-L\(base)/lib -lgreet"]
        let linked = try Fixture.asmrun(["test", "suite", "--no-cache", "--runner", Fixture.runner] + flags, in: base)
        #expect(linked.status == .exited(0), "\(linked.stdout)\(linked.stderr)")
        #expect(linked.stdout.contains("1 passed, 0 failed"), "\(linked.stdout)")
        let unlinked = try Fixture.asmrun(["test", "suite", "--no-cache", "--runner", Fixture.runner], in: base)
        #expect(unlinked.status == .exited(1), "\(unlinked.stdout)\(unlinked.stderr)")
        #expect(unlinked.stdout.contains("greet"), "the link failed for want of greet: \(unlinked.stdout)")
        // The same flag from a source is refused, with its line.
        try Fixture.write(
            "; asmrun: link-flags -L\(base)/lib -lgreet\nextern greet\nglobal _start\nsection .text\n_start:\n    call greet\n",
            to: base + "/suite/main.asm")
        let refused = try Fixture.asmrun(["test", "suite", "--no-cache", "--runner", Fixture.runner], in: base)
        #expect(refused.status != .exited(0))
        #expect((refused.stdout + refused.stderr).contains("main.asm:"), "\(refused.stdout)\(refused.stderr)")
    }

    /// `-include` a header outside the suite (a flag a source may not pass), through the cache:
    /// another header is another key.
    @Test func cFlagsFromTheCommandLineReachTheCompilerAndTheCacheKey() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write(
            [
                "three/value.h": "#define VALUE 3\n",
                "four/value.h": "#define VALUE 4\n",
                "suite/c/main.c": "int main(void) { return VALUE; }\n",
                "suite/c/driver.asm": "section .note.GNU-stack\n",
                "suite/c/c.expect": "[case default]\nstatus: exit 3\n",
            ], in: base)
        let common = ["test", "suite", "--cache-dir", base + "/cache", "--runner", Fixture.runner]
        let three = try Fixture.asmrun(common + ["--c-flags", "-include \(base)/three/value.h"], in: base)
        #expect(three.status == .exited(0), "\(three.stdout)\(three.stderr)")
        let four = try Fixture.asmrun(common + ["--c-flags", "-include \(base)/four/value.h"], in: base)
        #expect(four.status == .exited(1), "\(four.stdout)\(four.stderr)")
        #expect(four.stdout.contains("exit 4"), "\(four.stdout)")
    }
}
