import CLI
import Foundation
import Glibc
import Processes
import Support
import Testing

/// `asmrun FILE.asm` end to end: the built binary really assembles, links and runs the samples,
/// natively and under qemu; stdout, stderr and the exit status are checked together.
@Suite(.tags(.integration), .needsTools)
struct RunModeTests {
    private let corpus = Fixture.corpus
    private static let runners = Fixture.nativeHost ? ["native", "qemu"] : ["qemu"]

    @Test(arguments: runners) func hello(runner: String) throws {
        let result = try Fixture.asmrun([corpus + "/hello.asm", "--runner", runner])
        #expect(result.stdout == "Hello, World!\n")
        #expect(result.stderr == "")
        #expect(result.status == .exited(0))
    }

    @Test(arguments: runners) func exitStatusPassesThrough(runner: String) throws {
        let result = try Fixture.asmrun(["run", corpus + "/exit_code.asm", "--runner", runner])
        #expect(result == ("", "", .exited(42)))
    }

    @Test(arguments: runners) func programArgumentsAfterDoubleDash(runner: String) throws {
        let result = try Fixture.asmrun([corpus + "/args.asm", "--runner", runner, "--", "one", "two words", "--help"])
        #expect(result.stdout == "argc: 4\n./args\none\ntwo words\n--help\n")
        #expect(result.status == .exited(0))
    }

    @Test(arguments: runners) func stdinIsTheCallers(runner: String) throws {
        let result = try Fixture.asmrun([corpus + "/echo.asm", "--runner", runner], stdin: "line one\nline two\n")
        #expect(result.stdout == "line one\nline two\n")
    }

    @Test(arguments: runners) func elf32ProgramsViaBitsAndDirective(runner: String) throws {
        let hello = try Fixture.asmrun([corpus + "/hello32.asm", "--runner", runner])
        #expect(hello == ("Hello from 32-bit land!\n", "", .exited(0)))
        let sum = try Fixture.asmrun([corpus + "/sum32.asm", "--runner", runner])
        #expect(sum.status == .exited(55))
        let forced = try Fixture.asmrun([corpus + "/sum32.asm", "-f", "elf64"])
        #expect(forced.status == .exited(125))
        #expect(forced.stderr.contains("instruction not supported in 64-bit mode"))
        #expect(forced.stderr.contains("`-f elf32`"))
    }

    @Test(arguments: runners) func libcPrintfProgram(runner: String) throws {
        let result = try Fixture.asmrun([corpus + "/printf.asm", "--runner", runner])
        #expect(result == ("assembly has 8 letters\n", "", .exited(0)))
    }

    @Test(arguments: runners) func crashIs139WithAReportAndNoQemuNoise(runner: String) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun([corpus + "/segfault.asm", "--runner", runner], in: directory)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "asmrun: \(corpus)/segfault.asm:7: SIGSEGV (segmentation fault) writing address 0x0"
                + (runner == "native" ? " (not mapped)" : ""))
        #expect(lines.dropFirst().first == "    7 |         mov     qword [rax], 1")
        #expect(lines.allSatisfy { $0.hasPrefix("asmrun: ") || $0.hasPrefix("  ") }, "no qemu or gdb output: \(lines)")
        #expect(result.status == .exited(139))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "no core file")
    }

    @Test func includeWorksFromAnotherWorkingDirectory() throws {
        let result = try Fixture.asmrun([corpus + "/countdown.asm"], in: "/")
        #expect(result.stdout.hasPrefix("10\n9\n"))
        #expect(result.status == .exited(0))
        let relative = try Fixture.asmrun(["../asm/countdown.asm"], in: Fixture.packageRoot + "/Sources")
        #expect(relative.status == .exited(0))
    }

    @Test func nasmSyntaxErrorKeepsFileAndLine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("global _start\n_start:\n    mov eax,\n", to: directory + "/bad.asm")
        let result = try Fixture.asmrun(["bad.asm"], in: directory)
        #expect(result.status == .exited(125))
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("bad.asm:3: error:"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bad.asm"], "no build products beside the source")
    }

    @Test func startCallingLibcLinksLibcAndAMissingSymbolNamesWhoNeedsIt() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let program = """
            extern puts, exit
            section .data
            msg: db "hello from puts", 0
            section .text
            global _start
            _start:
                lea rdi, [rel msg]
                call puts
                xor edi, edi
                call exit

            """
        try Fixture.write(program, to: directory + "/calls_libc.asm")
        let result = try Fixture.asmrun(["calls_libc.asm", "-v", "--no-cache"], in: directory)
        #expect(result.stdout == "hello from puts\n")
        #expect(result.status == .exited(0))
        #expect(result.stderr.contains("-no-pie -nostartfiles"), "the C driver links libc, the program keeps its _start")
        try Fixture.write("extern triple\nglobal _start\n_start:\n    call triple\n", to: directory + "/needs.asm")
        let missing = try Fixture.asmrun(["needs.asm"], in: directory)
        #expect(missing.status == .exited(125))
        #expect(missing.stderr.contains("undefined reference to `triple'"))
        #expect(missing.stderr.contains("asmrun: needs.asm: link failed; `triple` is used by needs.asm but no source defines it"))
    }

    @Test func oneLineErrorsExit125() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("", to: directory + "/empty.asm")
        try FileManager.default.createDirectory(atPath: directory + "/nothing", withIntermediateDirectories: true)
        let cases: [([String], [String: String], String)] = [
            (["missing.asm"], [:], "asmrun: missing.asm: no such file; check the path\n"),
            (["empty.asm"], [:], "asmrun: empty.asm: is empty; write a program into it\n"),
            (["nothing", "--runner", "qemu"], [:], "asmrun: nothing: holds no .asm source; name a folder with the program's .asm files\n"),
            (
                ["empty.asm", "one"], [:],
                "asmrun: `one` is not a source (.asm, .c, .o, .a); pass program arguments after `--`: asmrun empty.asm -- one\n"
            ),
            (["x.asm", "--link", "gold"], [:], "asmrun: --link takes one of auto, ld, cc, not `gold`\n"),
            (
                [corpus + "/hello.asm"], ["PATH": "/nonexistent"],
                "asmrun: nasm not found; install it with `apt-get install nasm`\n"
            ),
            (
                [corpus + "/hello.asm", "--runner", "no-such-emulator"], [:],
                "asmrun: no-such-emulator runner unavailable: no-such-emulator not found on PATH; install it, give its full path, or use native or qemu\n"
            ),
        ]
        for (arguments, environment, message) in cases {
            let result = try Fixture.asmrun(arguments, in: directory, environment: environment)
            #expect(result.status == .exited(125), "\(arguments)")
            #expect(result.stderr == message)
        }
    }

    @Test func timeoutExits124() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("global _start\n_start:\n    jmp _start\n", to: directory + "/spin.asm")
        let start = monotonicSeconds()
        let result = try Fixture.asmrun(["spin.asm", "--timeout", "0.5"], in: directory)
        #expect(result.status == .exited(124))
        #expect(result.stderr == "asmrun: spin.asm: timed out after 0.5 s\n")
        #expect(monotonicSeconds() - start < 10)
    }

    @Test func simulatedArmHostUsesQemuAndLld() throws {
        // Only nasm, ld.lld and qemu on PATH: the cross-linker fallback of a bare ARM host.
        let bin = try Fixture.temporaryDirectory()
        defer { Files.removeTree(bin) }
        for tool in ["nasm", "ld.lld", "qemu-x86_64"] {
            let path = try #require(Fixture.locator.find(tool), "\(tool) missing")
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: path)
        }
        let result = try Fixture.asmrun(
            [corpus + "/hello.asm", "-v", "--no-cache"], environment: ["ASMRUN_HOST_ARCH": "aarch64", "PATH": bin])
        #expect(result.stdout == "Hello, World!\n")
        #expect(result.status == .exited(0))
        let commands = result.stderr.split(separator: "\n").map { $0.split(separator: " ")[1] }
        #expect(commands.map { ($0 as Substring).split(separator: "/").last.map(String.init) ?? "" } == ["nasm", "ld.lld", "qemu-x86_64"])
        let libc = try Fixture.asmrun([corpus + "/printf.asm"], environment: ["ASMRUN_HOST_ARCH": "aarch64", "PATH": bin])
        #expect(libc.status == .exited(125))
        #expect(libc.stderr.contains("apt-get install gcc-x86-64-linux-gnu libc6-dev-amd64-cross"))
    }

    @Test func keepsTheExecutableWithDashO() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun([corpus + "/hello.asm", "-o", directory + "/hello"])
        #expect(result.status == .exited(0))
        let again = try PosixLauncher(path: nil).run(Command(directory + "/hello"), options: LaunchOptions())
        #expect(again.stdout == Array("Hello, World!\n".utf8))
    }

    /// A hit runs the cache's entry itself (the ELF file, then the entry's trailer); `-o` from a
    /// hit writes the executable ld wrote, byte for byte, without the trailer.
    @Test func aHitRunsTheEntryInPlaceAndDashOKeepsOnlyTheExecutable() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let cache = directory + "/cache"
        let cold = try Fixture.asmrun([corpus + "/hello.asm", "--cache-dir", cache, "-o", directory + "/cold"])
        let warm = try Fixture.asmrun([corpus + "/hello.asm", "--cache-dir", cache, "-o", directory + "/warm", "-v"])
        #expect(cold.stdout == "Hello, World!\n" && warm.stdout == "Hello, World!\n")
        #expect(warm.stderr.contains("(cached "))
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/objects")
        #expect(entries.count == 1)
        let entry = try Files.read(cache + "/objects/" + (entries.first ?? ""))
        let executable = try Files.read(directory + "/cold")
        #expect(try Files.read(directory + "/warm") == executable)
        #expect(entry.count > executable.count && Array(entry.prefix(executable.count)) == executable)
        var info = stat()
        #expect(stat(cache + "/objects/" + (entries.first ?? ""), &info) == 0 && info.st_mode & 0o111 == 0o111, "runnable")
    }

    @Test func cacheSkipsNasmAndLdForAnUnchangedProgram() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        let first = try Fixture.asmrun([corpus + "/hello.asm", "-v", "--cache-dir", cache])
        #expect(first.stderr.contains("nasm"))
        let second = try Fixture.asmrun([corpus + "/hello.asm", "-v", "--cache-dir", cache])
        #expect(second.stdout == "Hello, World!\n")
        #expect(!second.stderr.contains("nasm"), "a cache hit runs neither nasm nor ld")
        // A corrupted entry is rebuilt, not trusted.
        let objects = cache + "/objects"
        for entry in try FileManager.default.contentsOfDirectory(atPath: objects) {
            let path = objects + "/" + entry
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[100] ^= 0xff
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let third = try Fixture.asmrun([corpus + "/hello.asm", "-v", "--cache-dir", cache])
        #expect(third.stdout == "Hello, World!\n")
        #expect(third.stderr.contains("nasm"))
    }

    @Test func cacheInfoAndClean() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        _ = try Fixture.asmrun([corpus + "/hello.asm", "--cache-dir", cache])
        _ = try Fixture.asmrun([corpus + "/exit_code.asm", "--cache-dir", cache])
        let info = try Fixture.asmrun(["cache", "info", "--cache-dir", cache])
        #expect(info.status == .exited(0))
        // A one-source program keeps only its executable; a two-source one its objects too.
        _ = try Fixture.asmrun([corpus + "/two_files"], environment: ["XDG_CACHE_HOME": cache + "/xdg"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/xdg/asmrun/objects").count == 3)
        #expect(info.stdout.contains("cache: \(cache)\nentries: 2\n"))
        let clean = try Fixture.asmrun(["cache", "clean", "--cache-dir", cache])
        #expect(clean.stdout == "removed 2 entries from \(cache)\n")
        #expect(try Fixture.asmrun(["cache", "info", "--cache-dir", cache]).stdout.contains("entries: 0\n"))
        let bad = try Fixture.asmrun(["cache", "shrink"])
        #expect(bad.status == .exited(2))
        #expect(bad.stderr == "asmrun: usage: asmrun cache info|clean [--cache-dir DIR]\n")
    }

    @Test(.needsIsolatingRoot)
    func doctorListsEveryLayerAsRoot() throws {
        let doctor = try Fixture.asmrun(["doctor"])
        for layer in ["pid", "ipc", "uts", "net", "mount", "caps", "seccomp", "cgroup"] {
            #expect(doctor.stdout.contains("\n  \(layer): active, "), "\(layer) in \(doctor.stdout)")
        }
    }

    @Test func versionHelpAndDoctor() throws {
        #expect(try Fixture.asmrun(["--version"]) == ("asmrun \(AsmRun.version)\n", "", .exited(0)))
        let help = try Fixture.asmrun(["--help"])
        #expect(help.stdout.contains("USAGE") && help.stdout.contains("EXAMPLES") && help.status == .exited(0))
        let doctor = try Fixture.asmrun(["doctor"])
        #expect(doctor.status == .exited(0))
        #expect(doctor.stdout.contains("nasm: /"))
        #expect(doctor.stdout.contains("qemu elf64: available"))
        #expect(
            doctor.stdout.contains("containment of test cases:\n  process group per case: active, ended with the case\n  terminal: active"))
        let arm = try Fixture.asmrun(["doctor"], environment: ["ASMRUN_HOST_ARCH": "aarch64"])
        #expect(arm.stdout.contains("host: aarch64 (simulated by ASMRUN_HOST_ARCH)"))
        #expect(arm.stdout.contains("native elf64: native runner unavailable"))
    }
}
