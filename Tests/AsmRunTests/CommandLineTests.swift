import Foundation
import Testing

@testable import Build
@testable import CLI
@testable import Run
@testable import Sandbox
@testable import Source
@testable import Support

/// The nasm, ld, cc and qemu command lines, built without spawning anything.
@Suite struct CommandLineTests {
    private static let toolFolder = NSTemporaryDirectory() + "/asmrun-fake-tools"

    /// A folder of empty executables standing in for the real tools (shared by the suite,
    /// one subfolder per tool set; removed with the machine's temporary files).
    private func toolchain(host: String, tools: [String]) throws -> Toolchain {
        let directory = Self.toolFolder + "/" + tools.joined(separator: "+")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for tool in tools {
            let path = directory + "/" + tool
            _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        return Toolchain(host: Host(architecture: host), locator: ExecutableLocator(path: directory))
    }

    private func source(_ text: String, path: String = "samples/prog.asm") throws -> SourceFile {
        try SourceFile(path: path, text: text)
    }

    @Test func plainProgramUsesNasmElf64AndLd() throws {
        let tools = try toolchain(host: "x86_64", tools: ["nasm", "ld", "cc"])
        let plan = try BuildPlan(source: try source("global _start\n_start: ret\n"), toolchain: tools, outputDirectory: "/out")
        let directory = tools.locator.searchPath[0]
        #expect(plan.assemble == Command(directory + "/nasm", ["-f", "elf64", "-I", "samples/", "-o", "/out/prog.o", "samples/prog.asm"]))
        #expect(plan.link == Command(directory + "/ld", ["-m", "elf_x86_64", "-z", "noexecstack", "-o", "/out/prog", "/out/prog.o"]))
    }

    @Test func bits32SelectsElf32AndI386Emulation() throws {
        let tools = try toolchain(host: "x86_64", tools: ["nasm", "ld"])
        let plan = try BuildPlan(source: try source("BITS 32\nglobal _start\n_start:\n"), toolchain: tools, outputDirectory: "/o")
        #expect(plan.format == .elf32)
        #expect(plan.assemble.arguments.starts(with: ["-f", "elf32"]))
        #expect(plan.link.arguments.starts(with: ["-m", "elf_i386"]))
    }

    @Test func mainWithoutStartLinksWithCcNoPie() throws {
        let tools = try toolchain(host: "x86_64", tools: ["nasm", "ld", "cc"])
        let plan = try BuildPlan(source: try source("extern printf\nglobal main\nmain: ret\n"), toolchain: tools, outputDirectory: "/o")
        #expect(plan.linkMode == .cc)
        #expect(plan.link.executable.hasSuffix("/cc"))
        #expect(plan.link.arguments == ["-no-pie", "-Wl,-z,noexecstack", "-o", "/o/prog", "/o/prog.o"])
    }

    @Test func includeDirectoriesAndDefinesReachNasm() throws {
        let tools = try toolchain(host: "x86_64", tools: ["nasm", "ld"])
        var program = try source("; asmrun: define LEVEL=2\n; asmrun: include macros\n_start:\n")
        program.settings.includeDirectories.append("/extra")
        program.settings.defines.append("DEBUG")
        let plan = try BuildPlan(source: program, toolchain: tools, outputDirectory: "/o")
        #expect(
            plan.assemble.arguments == [
                "-f", "elf64", "-I", "samples/", "-I", "samples/macros/", "-I", "/extra/", "-DLEVEL=2", "-DDEBUG",
                "-o", "/o/prog.o", "samples/prog.asm",
            ])
    }

    @Test func armHostPrefersCrossBinutilsThenLld() throws {
        let cross = try toolchain(host: "aarch64", tools: ["nasm", "ld", "x86_64-linux-gnu-ld", "ld.lld"])
        #expect(try cross.linker(for: .elf64).hasSuffix("/x86_64-linux-gnu-ld"))
        let lldOnly = try toolchain(host: "aarch64", tools: ["nasm", "ld", "ld.lld"])
        let plan = try BuildPlan(source: try source("_start:\n"), toolchain: lldOnly, outputDirectory: "/o")
        #expect(plan.link.executable.hasSuffix("/ld.lld"))
        #expect(plan.link.arguments.starts(with: ["-m", "elf_x86_64"]))
    }

    @Test func armHostWithoutCrossCompilerNamesThePackages() throws {
        let tools = try toolchain(host: "aarch64", tools: ["nasm", "ld.lld", "cc"])
        #expect(
            throws: ToolError(
                tool: "x86_64-linux-gnu-gcc", packages: ["gcc-x86-64-linux-gnu", "libc6-dev-amd64-cross"],
                purpose: "needed to link libc programs on aarch64")
        ) {
            try tools.compilerDriver(for: .elf64)
        }
        let message = "\(ToolError(tool: "nasm", packages: ["nasm"]))"
        #expect(message == "nasm not found; install it with `apt-get install nasm`")
    }

    @Test func autoRunnerIsNativeOnX86AndQemuElsewhere() throws {
        let x86 = try toolchain(host: "x86_64", tools: ["qemu-x86_64", "qemu-i386"])
        #expect(try Runner.resolve(.auto, format: .elf64, toolchain: x86).kind == .native)
        let arm = try toolchain(host: "aarch64", tools: ["qemu-x86_64-static", "qemu-i386"])
        let runner = try Runner.resolve(.auto, format: .elf64, toolchain: arm)
        #expect(runner.name == "qemu")
        guard case .qemu(let path, _, _) = runner.kind else { Issue.record("not qemu"); return }
        #expect(path.hasSuffix("qemu-x86_64-static"))
        let i386 = try Runner.resolve(.auto, format: .elf32, toolchain: arm)
        #expect(i386.command(executable: "/b/p", argv0: "./p", arguments: []).executable.hasSuffix("/qemu-i386"))
        #expect(throws: RunnerUnavailable.self) { try Runner.resolve(.native, format: .elf64, toolchain: arm) }
    }

    @Test func runnerCommandLines() throws {
        let native = Runner(name: "native", kind: .native)
        #expect(native.command(executable: "/b/hello", argv0: "./hello", arguments: ["a"]) == Command("/b/hello", ["a"], argv0: "./hello"))
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let sysroot = QemuSysroot(path: root, loader: root + "/lib64/ld-linux-x86-64.so.2", package: nil)
        let qemu = Runner(name: "qemu", kind: .qemu(path: "/usr/bin/qemu-x86_64", cpu: nil, sysroot: sysroot)).withCPU("qemu64")
        #expect(
            qemu.command(executable: "/b/hello", argv0: "./hello", arguments: ["a"]).arguments
                == ["-cpu", "qemu64", "-L", root, "-0", "./hello", "/b/hello", "a"])
        let custom = Runner(name: "box64 --quiet", kind: .custom(["box64", "--quiet"]))
        #expect(custom.command(executable: "./hello", argv0: "./hello", arguments: ["x"]) == Command("box64", ["--quiet", "./hello", "x"]))
        #expect(native.noiseFilter == nil)
        #expect(qemu.noiseFilter != nil)
    }

    @Test func runOptionsParse() throws {
        let options = try RunOptions(parsing: [
            "-felf32", "x.asm", "-I", "inc", "-DDEBUG", "--runner", "qemu", "--timeout=2.5", "-v", "--", "-a", "b",
        ])
        #expect(options.source == "x.asm")
        #expect(options.format == .elf32)
        #expect(options.includeDirectories == ["inc"])
        #expect(options.defines == ["DEBUG"])
        #expect(options.runner == .qemu)
        #expect(options.timeout == 2.5)
        #expect(options.verbose)
        #expect(options.programArguments == ["-a", "b"])
        #expect(try RunOptions(parsing: ["x.asm", "--runner", "box64 -v"]).runner == .custom("box64 -v"))
    }

    @Test func runOptionsRejectBadUsage() {
        #expect(throws: UsageError("--format takes one of elf64, elf32, not `elf16`")) {
            try RunOptions(parsing: ["--format", "elf16", "x.asm"])
        }
        #expect(throws: UsageError.self) { try RunOptions(parsing: []) }
        #expect(throws: UsageError.self) { try RunOptions(parsing: ["a.asm", "b.asm"]) }
        #expect(throws: UsageError.self) { try RunOptions(parsing: ["a.asm", "--bogus"]) }
        #expect(throws: UsageError.self) { try RunOptions(parsing: ["a.asm", "--timeout", "-1"]) }
    }

    @Test func testOptionsParse() throws {
        let options = try TestOptions(parsing: ["--runner", "all,box64", "-j", "3", "--shard", "2/4", "--filter", "hello", "suite"])
        #expect(options.runners == [.native, .qemu, .custom("box64")])
        #expect(options.jobs == 3)
        #expect(options.shard! == (2, 4))
        #expect(options.paths == ["suite"])
        #expect(try TestOptions(parsing: []).paths == ["asm"])
        #expect(throws: UsageError.self) { try TestOptions(parsing: ["--shard", "5/4"]) }
        #expect(throws: UsageError.self) { try TestOptions(parsing: ["--filter", "("]) }
        #expect(throws: UsageError.self) { try TestOptions(parsing: ["-j", "0"]) }
    }
}
