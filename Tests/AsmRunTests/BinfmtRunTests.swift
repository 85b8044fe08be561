import Support
import Testing

/// The built binary with `--runner binfmt` and the qemu sysroot check, on a simulated ARM host.
@Suite(.tags(.integration), .needsTools)
struct BinfmtRunTests {
    private let corpus = Fixture.corpus

    /// On an x86_64 machine the kernel runs the program itself, so a fake registration is enough
    /// to follow the binfmt runner end to end; on an ARM machine exec needs a real handler.
    @Test(.enabled(if: Fixture.nativeHost, "on an ARM machine an x86 program exec'd directly needs a real binfmt_misc handler"))
    func binfmtRunnerExecsTheProgram() throws {
        let fake = try FakeBinfmt(entries: ["qemu-x86_64": FakeBinfmt.qemuX86_64])
        defer { fake.remove() }
        let arm = ["ASMRUN_HOST_ARCH": "aarch64", "ASMRUN_BINFMT_MISC_DIR": fake.folder]
        let run = try Fixture.asmrun([corpus + "/hello.asm", "--runner", "binfmt", "-v", "--no-cache"], environment: arm)
        #expect(run.stdout == "Hello, World!\n")
        #expect(run.status == .exited(0))
        let last = try #require(run.stderr.split(separator: "\n").last)
        #expect(last.hasPrefix("+ /") && last.hasSuffix("-hello"), "the program itself is exec'd, not qemu: \(last)")
        let suite = try Fixture.asmrun(
            ["test", corpus + "/hello.asm", corpus + "/exit_code.asm", "-v"], environment: arm.merging(["ASMRUN_RUNNER": "binfmt"]) { $1 })
        #expect(suite.stdout.contains("PASS  \(corpus)/hello.asm:default [binfmt]"))
        #expect(suite.status == .exited(0))
    }

    @Test func binfmtRunnerWithoutRegistryIsOneLine() throws {
        let fake = try FakeBinfmt(status: nil, entries: [:])
        defer { fake.remove() }
        let arm = ["ASMRUN_HOST_ARCH": "aarch64", "ASMRUN_BINFMT_MISC_DIR": fake.folder]
        let run = try Fixture.asmrun([corpus + "/hello.asm", "--runner", "binfmt"], environment: arm)
        #expect(run.status == .exited(125))
        #expect(
            run.stderr
                == "asmrun: binfmt runner unavailable: binfmt_misc is not mounted at \(fake.folder); mount it with "
                + "`mount -t binfmt_misc binfmt_misc \(fake.folder)`, or use `--runner qemu`\n")
        let suite = try Fixture.asmrun(["test", corpus + "/hello.asm"], environment: arm.merging(["ASMRUN_RUNNER": "binfmt"]) { $1 })
        #expect(suite.status == .exited(2))
        #expect(suite.stderr.contains("binfmt runner unavailable: binfmt_misc is not mounted"))
        let bad = try Fixture.asmrun([corpus + "/hello.asm"], environment: ["ASMRUN_RUNNER": "auto", "ASMRUN_HOST_ARCH": "aarch64"])
        #expect(bad.status == .exited(125))
        #expect(bad.stderr.hasPrefix("asmrun: ASMRUN_RUNNER=auto runner unavailable:"))
    }

    /// The `-L` sysroot is checked before a libc program runs, and the message names the loader.
    @Test func missingSysrootIsNamedBeforeRunning() throws {
        let empty = try Fixture.temporaryDirectory()
        defer { Files.removeTree(empty) }
        let arm = ["ASMRUN_HOST_ARCH": "aarch64", "QEMU_LD_PREFIX": empty]
        let run = try Fixture.asmrun([corpus + "/printf.asm", "--no-cache"], environment: arm)
        #expect(run.status == .exited(125))
        #expect(
            run.stderr
                == "asmrun: qemu runner unavailable: \(corpus)/printf.asm uses libc, and the x86 loader qemu needs for it, "
                + "\(empty)/lib64/ld-linux-x86-64.so.2, is missing; point QEMU_LD_PREFIX at an x86 root file system that has it\n")
        let suite = try Fixture.asmrun(["test", corpus + "/printf.asm", corpus + "/hello.asm"], environment: arm)
        #expect(suite.status == .exited(1))
        #expect(suite.stdout.contains("ERROR \(corpus)/printf.asm:default [qemu]: qemu runner unavailable: \(corpus)/printf.asm uses libc"))
        #expect(suite.stdout.contains("1 passed, 1 failed"))
    }
}
