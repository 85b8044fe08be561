import Build
import Foundation
import Processes
import Source
import Support
import Testing

/// What a program runs as is the classic build's: `nasm -f FORMAT x.asm && ld x.o`, byte for byte
/// where the program can see it.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and qemu-user"))
struct FidelityTests {
    /// Writes 64 bytes from an unterminated string at the end of `.data`: the string, then
    /// whatever the file holds after it (the kernel maps the rest of that page from the file).
    static func unterminated(_ format: ObjectFormat) -> String {
        format == .elf64
            ? Fixture.writer("msg", count: "64") + "section .data\nmsg: db \"Hello\"\n"
            : Fixture.writer32("msg", count: "64") + "section .data\nmsg: db \"Hello\"\n"
    }

    /// Runs `command` in `directory` and returns its stdout's bytes and its status.
    static func run(_ executable: String, _ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws
        -> (stdout: [UInt8], status: Termination)
    {
        var environment = Fixture.environment
        for (key, value) in extra { environment[key] = value }
        let launcher = PosixLauncher(path: environment["PATH"])
        let path = ExecutableLocator(path: environment["PATH"]).find(executable) ?? executable
        var options = LaunchOptions()
        options.timeout = 60
        let result = try launcher.run(Command(path, arguments, environment: environment, workingDirectory: directory), options: options)
        return (result.stdout, result.termination)
    }

    /// The classic build's output, natively (or under qemu on an ARM host), against asmrun's
    /// under every runner: the bytes after the string are `.symtab`'s, never debug information.
    @Test(arguments: ObjectFormat.allCases)
    func bytesAfterTheDataAreTheClassicBuilds(format: ObjectFormat) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Fixture.write(Self.unterminated(format), to: directory + "/scan.asm")
        #expect(try Self.run("nasm", ["-f", format.rawValue, "scan.asm", "-o", "scan.o"], in: directory).status == .exited(0))
        let emulation = format == .elf64 ? "elf_x86_64" : "elf_i386"
        #expect(try Self.run("ld", ["-m", emulation, "scan.o", "-o", "scan"], in: directory).status == .exited(0))
        let emulator = "qemu-" + (format == .elf64 ? "x86_64" : "i386")
        let executable = directory + "/scan"
        let classic = try Self.run(
            Fixture.nativeHost ? executable : emulator, Fixture.nativeHost ? [] : [executable], in: directory)
        #expect(classic.status == .exited(0))
        #expect(classic.stdout.count == 64)
        #expect(classic.stdout.prefix(5).elementsEqual(Array("Hello".utf8)))
        // The padding and `.symtab`'s null entry follow the string in the classic build.
        #expect(classic.stdout[5..<16].allSatisfy { $0 == 0 }, "classic: \(classic.stdout)")
        let runners: [(String, [String], [String: String])] = [
            ("auto", [], [:]), ("qemu", ["--runner", "qemu"], [:]), ("simulated ARM host", [], ["ASMRUN_HOST_ARCH": "aarch64"]),
        ]
        for (name, options, environment) in runners {
            let ran = try Self.run(Fixture.binary, ["scan.asm", "--no-cache"] + options, in: directory, environment: environment)
            #expect(ran.status == .exited(0), "\(name)")
            #expect(ran.stdout == classic.stdout, "\(name): \(ran.stdout) against the classic build's \(classic.stdout)")
        }
    }

    /// The executable kept with `-o` is the classic build's, byte for byte; with `-g`, that of
    /// `nasm -g -F dwarf && ld`.
    @Test(arguments: ObjectFormat.allCases)
    func keptExecutableIsTheClassicBuild(format: ObjectFormat) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Fixture.write(Self.unterminated(format), to: directory + "/scan.asm")
        let emulation = format == .elf64 ? "elf_x86_64" : "elf_i386"
        for debug in [false, true] {
            let flags = debug ? ["-g", "-F", "dwarf"] : []
            #expect(
                try Self.run("nasm", ["-f", format.rawValue] + flags + ["scan.asm", "-o", "scan.o"], in: directory).status == .exited(0))
            #expect(try Self.run("ld", ["-m", emulation, "scan.o", "-o", "classic"], in: directory).status == .exited(0))
            let kept = try Self.run(Fixture.binary, ["scan.asm", "--no-cache", "-o", "kept"] + (debug ? ["-g"] : []), in: directory)
            #expect(kept.status == .exited(0))
            let classic = try Data(contentsOf: URL(fileURLWithPath: directory + "/classic"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/kept")) == classic, "debug: \(debug)")
        }
    }

    /// The line tables gdb reads come from a `-g` build whose loadable segments are the classic
    /// build's (`ArtifactStore.debugBuild` checks it); another program's are not.
    @Test(arguments: ObjectFormat.allCases)
    func theDebugBuildLoadsWhereTheClassicOneDoes(format: ObjectFormat) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Fixture.write(Self.unterminated(format), to: directory + "/scan.asm")
        try Fixture.write(
            Self.unterminated(format).replacingOccurrences(of: "\"Hello\"", with: "\"Hello, world\""), to: directory + "/other.asm")
        let emulation = format == .elf64 ? "elf_x86_64" : "elf_i386"
        func segments(_ source: String, _ flags: [String]) throws -> ElfSegments? {
            #expect(
                try Self.run("nasm", ["-f", format.rawValue] + flags + [source + ".asm", "-o", "x.o"], in: directory).status == .exited(0))
            #expect(try Self.run("ld", ["-m", emulation, "x.o", "-o", "x"], in: directory).status == .exited(0))
            return ElfSegments(try Files.read(directory + "/x"))
        }
        let classic = try #require(try segments("scan", []))
        #expect(classic.loads.count == 3 && !classic.hasInterpreter && classic.executableStack == (format == .elf32))
        #expect(try segments("scan", ["-g", "-F", "dwarf"])?.loads == classic.loads)
        #expect(try segments("other", [])?.loads != classic.loads)
    }

    /// The crash report runs the classic build under gdb and reads its lines from the debug
    /// build, which lives in the cache: a cache folder whose name holds a blank, quotes and a
    /// backslash still reaches gdb's `symbol-file` as one path (natively, under qemu, and as a
    /// simulated ARM host).
    @Test(.enabled(if: Fixture.debugToolsAvailable, "needs gdb-multiarch"), arguments: ["native", "qemu", "arm"])
    func theCrashReportReadsTheDebugBuildsLines(way: String) throws {
        if way == "native" && !Fixture.nativeHost { return }
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Fixture.write("global _start\nsection .text\n_start:\n    xor ebx, ebx\n    mov [rbx], eax\n", to: directory + "/crash.asm")
        let cache = directory + "/a b'c\"d\\e"
        let arguments = ["crash.asm", "--cache-dir", cache] + (way == "arm" ? [] : ["--runner", way])
        for round in ["cold", "warm"] {
            let result = try Fixture.asmrun(arguments, in: directory, environment: way == "arm" ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:])
            #expect(result.stderr.hasPrefix("asmrun: crash.asm:5: SIGSEGV"), "\(round): \(result.stderr)")
            #expect(result.stderr.contains("    5 |     mov [rbx], eax"), "\(round)")
        }
    }
}
