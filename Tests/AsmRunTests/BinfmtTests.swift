import Build
import Glibc
import Processes
import Support
import Testing

@testable import Run

/// binfmt_misc entries, the registry, and the binfmt runner, on fake folders.
@Suite struct BinfmtTests {
    private let arm = Toolchain(host: Host(architecture: "aarch64"), locator: ExecutableLocator(path: "/nonexistent"))

    @Test func parsesDebiansQemuEntry() {
        let handler = BinfmtHandler(name: "qemu-x86_64", text: FakeBinfmt.qemuX86_64)
        #expect(handler.enabled)
        #expect(handler.interpreter == "/usr/libexec/qemu-binfmt/x86_64-binfmt-P")
        #expect(handler.flags == "PF")
        #expect(handler.offset == 0)
        #expect(handler.magic.count == 20 && handler.mask.count == 20)
        #expect(handler.claims(.elf64))
        #expect(!handler.claims(.elf32))
    }

    @Test func claimsFollowMagicAndMask() {
        #expect(BinfmtHandler(name: "rosetta", text: FakeBinfmt.rosetta).claims(.elf64))
        let i386 = BinfmtHandler(name: "qemu-i386", text: FakeBinfmt.qemuI386)
        #expect(i386.claims(.elf32) && !i386.claims(.elf64))
        let arm = BinfmtHandler(name: "qemu-arm", text: FakeBinfmt.qemuArm)
        #expect(!arm.claims(.elf32) && !arm.claims(.elf64))
        let wine = BinfmtHandler(name: "wine", text: FakeBinfmt.wine)
        #expect(wine.fileExtension == ".exe" && !wine.claims(.elf64))
        let disabled = BinfmtHandler(name: "x", text: FakeBinfmt.qemuX86_64.replacingOccurrences(of: "enabled", with: "disabled"))
        #expect(!disabled.enabled && disabled.claims(.elf64))
        let broken = BinfmtHandler(name: "x", text: "enabled\ninterpreter /x\nmagic 7f4\n")
        #expect(broken.magic.isEmpty && !broken.claims(.elf64))
    }

    @Test func unmountedFolderSaysSo() throws {
        let fake = try FakeBinfmt(status: nil, entries: [:])
        defer { fake.remove() }
        let registry = BinfmtMisc(reading: fake.folder)
        #expect(!registry.mounted)
        #expect(throws: RunnerUnavailable.self) { try registry.handler(for: .elf64).get() }
        let problem = "\(try #require(registry.handler(for: .elf64).failure))"
        #expect(problem.hasPrefix("binfmt runner unavailable: binfmt_misc is not mounted at \(fake.folder); mount it with"))
    }

    @Test func picksAnEnabledHandlerAndNamesADisabledOne() throws {
        let disabled = FakeBinfmt.qemuX86_64.replacingOccurrences(of: "enabled", with: "disabled")
        let fake = try FakeBinfmt(entries: ["qemu-x86_64": disabled, "qemu-arm": FakeBinfmt.qemuArm])
        defer { fake.remove() }
        let registry = BinfmtMisc(reading: fake.folder)
        #expect(registry.mounted && registry.enabled && registry.handlers.map(\.name) == ["qemu-arm", "qemu-x86_64"])
        let problem = try #require(registry.handler(for: .elf64).failure)
        #expect(problem.reason == "the x86-64 handler qemu-x86_64 is disabled")
        #expect(problem.fix == "enable it with `echo 1 > \(fake.folder)/qemu-x86_64`")
        #expect(try #require(registry.handler(for: .elf32).failure).reason == "no binfmt_misc handler for i386 programs is registered")
        try Fixture.write(FakeBinfmt.rosetta, to: fake.folder + "/rosetta")
        #expect(try BinfmtMisc(reading: fake.folder).handler(for: .elf64).get().name == "rosetta")
    }

    @Test func globalSwitchAndMissingInterpreter() throws {
        let fake = try FakeBinfmt(status: "disabled", entries: ["rosetta": FakeBinfmt.rosetta])
        defer { fake.remove() }
        #expect(try #require(BinfmtMisc(reading: fake.folder).handler(for: .elf64).failure).reason.contains("binfmt_misc is disabled"))
        // Without the F flag the kernel opens the interpreter at exec time: it must exist.
        let noFix = FakeBinfmt.rosetta.replacingOccurrences(of: "flags: OCF", with: "flags: OC")
        let open = try FakeBinfmt(entries: ["rosetta": noFix])
        defer { open.remove() }
        #expect(
            try #require(BinfmtMisc(reading: open.folder).handler(for: .elf64).failure).reason
                == "the interpreter of handler rosetta, /mnt/lima-rosetta/rosetta, does not exist")
    }

    @Test func binfmtRunnerExecsTheProgramDirectly() throws {
        let fake = try FakeBinfmt(entries: ["rosetta": FakeBinfmt.rosetta])
        defer { fake.remove() }
        let policy = RunnerPolicy(binfmtFolder: fake.folder)
        let runner = try Runner.resolve(.binfmt, format: .elf64, toolchain: arm, policy: policy)
        #expect(runner.name == "binfmt")
        #expect(runner.kind == .binfmt(handler: "rosetta", interpreter: "/mnt/lima-rosetta/rosetta"))
        #expect(runner.command(executable: "/b/hello", argv0: "./hello", arguments: ["a"]) == Command("/b/hello", ["a"], argv0: "./hello"))
        #expect(throws: RunnerUnavailable.self) { try Runner.resolve(.binfmt, format: .elf32, toolchain: arm, policy: policy) }
        let x86 = Toolchain(host: Host(architecture: "x86_64"), locator: arm.locator)
        #expect(throws: RunnerUnavailable.self) { try Runner.resolve(.binfmt, format: .elf64, toolchain: x86, policy: policy) }
    }

    @Test func autoKeepsQemuUnlessAsmrunRunnerSaysBinfmt() throws {
        let fake = try FakeBinfmt(entries: ["rosetta": FakeBinfmt.rosetta])
        defer { fake.remove() }
        var policy = try RunnerPolicy(environment: ["ASMRUN_BINFMT_MISC_DIR": fake.folder])
        #expect(policy.foreign == .qemu && policy.binfmtFolder == fake.folder)
        // qemu is not on this toolchain's PATH: auto fails for want of qemu, not for want of a handler.
        #expect(throws: ToolError.self) { try Runner.resolve(.auto, format: .elf64, toolchain: arm, policy: policy) }
        policy = try RunnerPolicy(environment: ["ASMRUN_BINFMT_MISC_DIR": fake.folder, "ASMRUN_RUNNER": "binfmt"])
        #expect(try Runner.resolve(.auto, format: .elf64, toolchain: arm, policy: policy).name == "binfmt")
        #expect(try RunnerPolicy(environment: ["ASMRUN_RUNNER": "box64"]).foreign == .custom("box64"))
        #expect(throws: RunnerUnavailable.self) { try RunnerPolicy(environment: ["ASMRUN_RUNNER": "native"]) }
        #expect(RunnerChoice("binfmt") == .binfmt && "\(RunnerChoice.binfmt)" == "binfmt")
    }

    @Test func libcProgramsNeedTheLoaderInTheSysroot() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let qemu = try Fixture.temporaryDirectory()
        defer { Files.removeTree(qemu) }
        try Fixture.write("#!/bin/sh\n", to: qemu + "/qemu-x86_64")
        #expect(chmod(qemu + "/qemu-x86_64", 0o755) == 0)
        let tools = Toolchain(host: Host(architecture: "aarch64"), locator: ExecutableLocator(path: qemu), qemuPrefix: root)
        let runner = try Runner.resolve(.qemu, format: .elf64, toolchain: tools)
        let problem = try #require(runner.libcProblem(program: "p.asm"))
        #expect(
            problem.message.hasPrefix(
                "qemu runner unavailable: p.asm uses libc, and the x86 loader qemu needs for it, \(root)/lib64/ld-linux-x86-64.so.2, is missing"
            ))
        try Fixture.write("", to: root + "/lib64/ld-linux-x86-64.so.2")
        #expect(runner.libcProblem(program: "p.asm") == nil)
        #expect(runner.command(executable: "/b/p", argv0: "./p", arguments: []).arguments == ["-L", root, "-0", "./p", "/b/p"])
        let debian = Toolchain(host: Host(architecture: "aarch64"), locator: tools.locator).qemuSysroot(for: .elf64)
        #expect(
            debian
                == QemuSysroot(
                    path: "/usr/x86_64-linux-gnu", loader: "/usr/x86_64-linux-gnu/lib64/ld-linux-x86-64.so.2", package: "libc6-amd64-cross")
        )
        let missing = Runner(
            name: "qemu",
            kind: .qemu(path: "q", cpu: nil, sysroot: QemuSysroot(path: "/nowhere", loader: "/nowhere/ld", package: "libc6-amd64-cross")))
        #expect(missing.libcProblem(program: "p.asm")?.fix?.hasPrefix("install it with `apt-get install libc6-amd64-cross`") == true)
        #expect(missing.command(executable: "/b/p", argv0: "./p", arguments: []).arguments == ["-0", "./p", "/b/p"])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
