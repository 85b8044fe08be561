import Foundation
import Source
import Support
import Testing

/// The syscall check on whole programs read from files: includes resolved as the build resolves
/// them, and silence on every sample of the repository.
struct SyscallCheckProgramTests {
    /// Every program of `asm/`: files, and the folders that are one program each.
    static func corpusPrograms() throws -> [Program] {
        var programs: [Program] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: Fixture.corpus).sorted() {
            let path = Fixture.corpus + "/" + name
            let parts = name.split(separator: "/")
            let samples = parts.count == 2 && ["crashes", "checks"].contains(parts[0])
            if parts.count == 1 || samples && parts[0] == "checks", Files.isDirectory(path), !["crashes", "checks", "lib"].contains(name),
                !name.hasSuffix(".files")
            {
                programs.append(try Program.load(folder: path))
            } else if Program.SourceKind(path: path) == .assembly, parts.count == 1 || samples {
                let program = try Program.load(file: path)
                if !program.settings.includeOnly { programs.append(program) }
            }
        }
        return programs
    }

    @Test func includedFunctionsAndMacrosAreRead() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(
            "print:\n    mov eax, 1\n    syscall\n    ret\n%macro next 1\n    loop %1\n%endmacro\n", to: directory + "/lib/io.inc")
        let main = "%include \"lib/io.inc\"\n_start:\n    mov ecx, 3\ntop:\n    call print\n    next top\n    mov eax, 60\n    syscall\n"
        try Fixture.write(main, to: directory + "/main.asm")
        let program = try Program.load(file: directory + "/main.asm")
        let warnings = SyscallClobberCheck.warnings(for: program, format: .elf64)
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.path == directory + "/main.asm" && warning.line == 6)
        #expect(
            warning.message.hasPrefix(
                "rcx is read here by `loop` (in macro `next`) after the syscall at \(directory)/lib/io.inc:3, returned to after the call at \(directory)/main.asm:5,"
            ),
            "\(warning.message)")
        // Built as elf32 (where `syscall` is no instruction), nothing is read.
        #expect(SyscallClobberCheck.warnings(for: program, format: .elf32).isEmpty)
    }

    @Test func anIncludeThatCannotBeReadStopsAtWordsItMayDefine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // `restore_counter` may be a macro of the missing file that writes rcx: nothing is said.
        let text =
            "%include \"missing.inc\"\n_start:\n    mov ecx, 3\ntop:\n    mov eax, 1\n    syscall\n    restore_counter\n    loop top\n"
        try Fixture.write(text, to: directory + "/main.asm")
        #expect(SyscallClobberCheck.warnings(for: try Program.load(file: directory + "/main.asm"), format: .elf64).isEmpty)
        try Fixture.write(text.replacing("restore_counter", with: "restore_counter 3"), to: directory + "/other.asm")
        #expect(SyscallClobberCheck.warnings(for: try Program.load(file: directory + "/other.asm"), format: .elf64).isEmpty)
        // With the file there (and no such macro in it), the read is found.
        try Fixture.write("; nothing\n", to: directory + "/missing.inc")
        #expect(SyscallClobberCheck.warnings(for: try Program.load(file: directory + "/main.asm"), format: .elf64).map(\.line) == [8])
    }

    @Test func theSamplesHaveNone() throws {
        let programs = try Self.corpusPrograms()
        #expect(programs.count > 40)
        for program in programs {
            let warnings = SyscallClobberCheck.warnings(for: program, format: program.format)
            #expect(warnings.isEmpty, "\(program.path): \(warnings.map(\.rendered))")
        }
    }
}

/// The warning as users meet it: printed before the program runs under every runner (it is the
/// native user's only clue to a loop that never ends), replayed from the cache, and shown with
/// passing cases of `asmrun test` in every report.
@Suite(.tags(.integration), .needsTools)
struct SyscallWarningTests {
    /// Writes `.` three times, counting in rcx across the syscall: it ends under qemu, never natively.
    static let counter = """
        section .data
        dot: db "."
        section .text
        global _start
        _start:
                mov     rcx, 3
        top:    mov     eax, 1
                mov     edi, 1
                lea     rsi, [rel dot]
                mov     edx, 1
                syscall
                loop    top
                mov     eax, 60
                xor     edi, edi
                syscall

        """

    /// Exits with r11 after getpid: RFLAGS natively (2), 42 under qemu.
    static let flags = """
        global _start
        _start:
                mov     r11, 42
                mov     eax, 39
                syscall
                mov     rdi, r11
                mov     eax, 60
                syscall

        """

    static let counterWarning =
        "/loop.asm:12: warning: rcx is read here by `loop` after the syscall at %/loop.asm:11, which overwrites it on x86 hardware"
    static let flagsWarning = "/flags.asm:6: warning: r11 is read here after the syscall at %/flags.asm:5; r11 holds RFLAGS"

    private func programs() throws -> String {
        let directory = try Fixture.temporaryDirectory()
        try Fixture.write(Self.counter, to: directory + "/loop.asm")
        try Fixture.write(Self.flags, to: directory + "/flags.asm")
        return directory
    }

    private func expected(_ warning: String, in directory: String) -> String {
        directory + warning.replacing("%", with: directory)
    }

    @Test func underQemuTheProgramsPassAndAreWarnedAbout() throws {
        let directory = try programs()
        defer { Files.removeTree(directory) }
        // `--runner qemu` here, and qemu on an ARM host (simulated) where it is the only runner.
        for (options, environment) in [(["--runner", "qemu"], [:]), ([], ["ASMRUN_HOST_ARCH": "aarch64"])] {
            let counter = try Fixture.asmrun([directory + "/loop.asm", "--timeout", "10"] + options, environment: environment)
            #expect(counter.stdout.prefix(10) == "...")
            #expect(counter.stderr.hasPrefix(expected(Self.counterWarning, in: directory)), "\(counter.stderr.prefix(400))")
            #expect(counter.status == .exited(0))
            let flags = try Fixture.asmrun([directory + "/flags.asm", "--no-cache"] + options, environment: environment)
            #expect(flags.stderr.hasPrefix(expected(Self.flagsWarning, in: directory)), "\(flags.stderr)")
            #expect(flags.status == .exited(42))
        }
    }

    @Test(.needsNativeHost) func nativelyTheWarningComesBeforeTheRun() throws {
        let directory = try programs()
        defer { Files.removeTree(directory) }
        let cache = ["XDG_CACHE_HOME": directory + "/cache"]
        // Twice: built, then from the cache, which replays it.
        for _ in 0..<2 {
            // Its endless dots go to /dev/null: more than the test's capture takes in a second.
            let counter = try Fixture.asmrun(
                ["-c", "exec \"$0\" \"$@\" >/dev/null", Fixture.binary, directory + "/loop.asm", "--runner", "native", "--timeout", "1"],
                environment: cache, executable: "/bin/sh")
            #expect(counter.stderr.hasPrefix(expected(Self.counterWarning, in: directory)), "\(counter.stderr.prefix(400))")
            #expect(counter.stderr.hasSuffix("timed out after 1 s\n"), "\(counter.stderr.suffix(300))")
            let flags = try Fixture.asmrun([directory + "/flags.asm", "--runner", "native"], environment: cache)
            #expect(flags.stderr.hasPrefix(expected(Self.flagsWarning, in: directory)), "\(flags.stderr)")
            #expect(flags.status == .exited(2))
        }
    }

    @Test func aPassingCaseShowsItOncePerProgramAndInEveryReport() throws {
        let directory = try programs()
        defer { Files.removeTree(directory) }
        // Recorded under qemu: what the programs do there is what the cases expect.
        try Fixture.write("[case one]\n[case two]\n", to: directory + "/loop.expect")
        try Fixture.write("[case one]\n[case two]\n", to: directory + "/flags.expect")
        #expect(Fixture.test([directory, "--update", "--runner", "qemu"]).status == 0)
        #expect(try String(contentsOfFile: directory + "/flags.expect", encoding: .utf8).contains("status: exit 42"))
        let reports = [
            "--json", directory + "/report.json", "--junit", directory + "/report.xml", "--gradescope", directory + "/grades.json",
        ]
        let run = Fixture.test(
            [directory, "--runner", "qemu"] + reports,
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": directory + "/summary.md"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let warning = expected(Self.counterWarning, in: directory)
        #expect(run.output.components(separatedBy: warning).count == 2, "\(run.output)")
        #expect(run.output.components(separatedBy: expected(Self.flagsWarning, in: directory)).count == 2)
        #expect(run.output.contains("::warning file=\(directory)/loop.asm,line=12,title="))
        let results = try #require(Fixture.json(directory + "/report.json")["results"] as? [[String: Any]])
        #expect(results.count == 4)
        #expect(results.allSatisfy { ($0["build_output"] as? String)?.contains("after the syscall at") == true })
        let junit = try String(contentsOfFile: directory + "/report.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<system-err>\(warning)").count == 3)
        let summary = try String(contentsOfFile: directory + "/summary.md", encoding: .utf8)
        #expect(summary.components(separatedBy: "loop.asm:12: warning: rcx is read here by \\`loop\\`").count == 2, "\(summary)")
        let grades = try #require(Fixture.json(directory + "/grades.json")["tests"] as? [[String: Any]])
        #expect(grades.allSatisfy { ($0["output"] as? String)?.contains(": warning: r") == true })
    }

    @Test(.needsNativeHost) func failingCasesShowItOnceToo() throws {
        let directory = try programs()
        defer { Files.removeTree(directory) }
        try Fixture.write("[case one]\nstatus: exit 42\n[case two]\nstatus: exit 42\n", to: directory + "/flags.expect")
        let run = Fixture.test([directory + "/flags.asm", "--runner", "native"])
        #expect(run.status == 1)
        #expect(run.output.components(separatedBy: "FAIL  ").count == 3, "\(run.output)")
        #expect(run.output.components(separatedBy: expected(Self.flagsWarning, in: directory)).count == 2, "\(run.output)")
    }
}
