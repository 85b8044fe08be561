import Foundation
import Testing

@testable import Source
@testable import Support

/// The syscall check on whole programs: silent on every sample of the repository.
struct SyscallWarningCorpusTests {
    /// Every program of `asm/`: files, and the folders that are one program each.
    static func corpusPrograms() throws -> [Program] {
        var programs: [Program] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: Fixture.corpus).sorted() {
            let path = Fixture.corpus + "/" + name
            let parts = name.split(separator: "/")
            if parts.count == 1, Files.isDirectory(path), !["crashes", "lib"].contains(name), !name.hasSuffix(".files") {
                programs.append(try Program.load(folder: path))
            } else if Program.SourceKind(path: path) == .assembly, parts.count == 1 || parts.first == "crashes" {
                let program = try Program.load(file: path)
                if !program.settings.includeOnly { programs.append(program) }
            }
        }
        return programs
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
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"))
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

    @Test(.enabled(if: Fixture.nativeHost, "the native runner needs an x86_64 host")) func nativelyTheWarningComesBeforeTheRun() throws {
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
        #expect(Fixture.test([directory, "--update", "--runner", "qemu"]).status == 0)
        #expect(try String(contentsOfFile: directory + "/flags.expect", encoding: .utf8).contains("status: exit 42"))
        let arguments = [directory, "--runner", "qemu", "--json", directory + "/report.json", "--junit", directory + "/report.xml"]
        let run = Fixture.test(arguments, environment: ["GITHUB_ACTIONS": "true"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let warning = expected(Self.counterWarning, in: directory)
        #expect(run.output.components(separatedBy: warning).count == 2, "\(run.output)")
        #expect(run.output.contains(expected(Self.flagsWarning, in: directory)))
        #expect(run.output.contains("::warning file=\(directory)/loop.asm,line=12,title="))
        let results = try #require(Fixture.json(directory + "/report.json")["results"] as? [[String: Any]])
        #expect(results.count == 3)
        #expect(results.allSatisfy { ($0["build_output"] as? String)?.contains("after the syscall at") == true })
        let junit = try String(contentsOfFile: directory + "/report.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<system-err>\(warning)").count == 3)
    }
}
