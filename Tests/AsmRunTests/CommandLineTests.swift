import Build
import Foundation
import Processes
import Session
import Suite
import Support
import Testing

@testable import CLI
@testable import Run

/// The nasm, ld, cc and qemu command lines, built without spawning anything.
@Suite struct CommandLineTests {
    private func toolchain(host: String, tools: [String]) throws -> Toolchain {
        try Fixture.fakeToolchain(host: host, tools: tools)
    }

    @Test func armHostPrefersCrossBinutilsThenLld() throws {
        let cross = try toolchain(host: "aarch64", tools: ["nasm", "ld", "x86_64-linux-gnu-ld", "ld.lld"])
        #expect(try cross.linker(for: .elf64).hasSuffix("/x86_64-linux-gnu-ld"))
        let lldOnly = try toolchain(host: "aarch64", tools: ["nasm", "ld", "ld.lld"])
        #expect(try lldOnly.linker(for: .elf64).hasSuffix("/ld.lld"))
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

    /// qemu gets the program's environment as `-E` options in reverse (it puts each at the head
    /// of the guest's list) and keeps in its own only what `-E` would split at a comma.
    @Test func qemuGetsTheEnvironmentAsOptionsInReverse() {
        let environment = ["PATH": "/bin", "A": "1", "LIST": "x,y", "QEMU_STRACE": "1"]
        let native = Runner(name: "native", kind: .native)
        #expect(native.command(executable: "/b/p", argv0: "./p", arguments: []).environment == nil)
        #expect(native.command(executable: "/b/p", argv0: "./p", arguments: [], environment: environment).environment == environment)
        let qemu = Runner(name: "qemu", kind: .qemu(path: "/usr/bin/qemu-x86_64", cpu: "qemu64", sysroot: nil))
        let command = qemu.command(executable: "/b/p", argv0: "./p", arguments: ["a"], environment: environment)
        #expect(
            command.arguments == ["-cpu", "qemu64", "-E", "QEMU_STRACE=1", "-E", "PATH=/bin", "-E", "A=1", "-0", "./p", "/b/p", "a"])
        #expect(command.environment == ["LIST": "x,y"])
        // A `QEMU_*` variable left in qemu's environment would be read by qemu as its setting.
        #expect(Runner.settingOfQemu(environment) == nil)
        #expect(Runner.settingOfQemu(["QEMU_LOG": "in_asm,strace", "LIST": "x,y"]) == "QEMU_LOG")
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

    @Test func runOptionsRejectBadUsage() throws {
        #expect(throws: UsageError("--format takes elf64 or elf32 (or elf, nasm's name for elf32), not `elf16`")) {
            try RunOptions(parsing: ["--format", "elf16", "x.asm"])
        }
        #expect(throws: UsageError.self) { try RunOptions(parsing: []) }
        #expect(try RunOptions(parsing: ["a.asm", "b.asm", "d.c", "-lm"]).sources == ["a.asm", "b.asm", "d.c"])
        #expect(try RunOptions(parsing: ["a.asm", "-lm", "--link-flags", "-static -pie"]).linkFlags == ["-lm", "-static", "-pie"])
        #expect(try RunOptions(parsing: ["a.asm", "--c-flags", "-O2 -Wall"]).cFlags == ["-O2", "-Wall"])
        #expect(throws: UsageError.self) { try RunOptions(parsing: ["a.asm", "--bogus"]) }
        #expect(throws: UsageError.self) { try RunOptions(parsing: ["a.asm", "--timeout", "-1"]) }
        // `-D ''` gave nasm a bare -D, which took the next word (asmrun's scratch path) for its name.
        for bad in ["", "=x", "1X", "A B", "A\nB"] {
            #expect(throws: UsageError.self, "-D \(bad.debugDescription)") { try RunOptions(parsing: ["a.asm", "-D", bad]) }
        }
        let defines = ["DEBUG", "N=3", "..@x?=a b", "SQR(x)=((x)*(x))"]
        #expect(try RunOptions(parsing: ["a.asm"] + defines.flatMap { ["-D", $0] }).defines == defines)
    }

    @Test func testOptionsParse() throws {
        let options = try TestPlan(parsing: ["--runner", "all,box64", "-j", "3", "--shard", "2/4", "--filter", "hello", "suite"])
        #expect(options.runners == [.native, .qemu, .custom("box64")])
        #expect(options.jobs == 3)
        #expect(options.shard == Shard(index: 2, count: 4))
        #expect(options.paths == ["suite"])
        #expect(try TestPlan(parsing: []).paths == ["asm"])
        #expect(throws: UsageError.self) { try TestPlan(parsing: ["--shard", "5/4"]) }
        #expect(throws: UsageError.self) { try TestPlan(parsing: ["--filter", "("]) }
        #expect(throws: UsageError.self) { try TestPlan(parsing: ["-j", "0"]) }
    }
}
