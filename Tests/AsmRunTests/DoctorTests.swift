import Glibc
import Processes
import Testing

@testable import CLI
@testable import Support

/// `asmrun doctor` in-process on fake tool folders and a fake binfmt_misc folder: its exit status
/// is 1 exactly when it says "not ready", and its binfmt_misc report.
@Suite struct DoctorTests {
    /// Runs doctor with only `tools` (scripts that print a version) on PATH.
    private func doctor(tools: [String], environment extra: [String: String], versions: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let bin = try Fixture.temporaryDirectory()
        defer { Files.removeTree(bin) }
        for tool in tools {
            try Fixture.write("#!/bin/sh\nprintf '%s\\n' '\(versions[tool] ?? tool + " 1.0")'\n", to: bin + "/" + tool)
            #expect(chmod(bin + "/" + tool, 0o755) == 0)
        }
        var environment = ["PATH": bin, "NO_COLOR": "1", "TMPDIR": bin]
        for (key, value) in extra { environment[key] = value }
        let console = Console(bufferingWithColor: false)
        let context = Context(environment: environment, launcher: PosixLauncher(path: bin), console: console)
        return (DoctorCommand(context: context).execute(), console.capturedOutput)
    }

    @Test func readyExitsZeroAndNotReadyExitsOne() throws {
        let unmounted = try FakeBinfmt(status: nil, entries: [:])
        defer { unmounted.remove() }
        let x86 = ["ASMRUN_HOST_ARCH": "x86_64", "ASMRUN_BINFMT_MISC_DIR": unmounted.folder]
        let ready = try doctor(tools: ["nasm", "ld", "cc", "qemu-x86_64", "qemu-i386"], environment: x86)
        #expect(ready.output.contains("\nready: asmrun can build and run programs here\n"))
        #expect(ready.status == 0)
        // This host allows the namespaces: the build layer is made and listed.
        #expect(ready.output.contains("\n  build: active, `asmrun test` builds in a view of its folders"), "\(ready.output)")
        // The report of the issue: "not ready: cc not found" must not exit 0.
        let noCC = try doctor(tools: ["nasm", "ld", "qemu-x86_64", "qemu-i386"], environment: x86)
        #expect(noCC.output.contains("\nnot ready:\n  cc not found"))
        #expect(noCC.status == 1)
        let badPolicy = try doctor(tools: ["nasm", "ld", "cc"], environment: x86.merging(["ASMRUN_RUNNER": "native"]) { $1 })
        #expect(badPolicy.output.contains("not ready:\n  ASMRUN_RUNNER=native runner unavailable"))
        #expect(badPolicy.status == 1)
    }

    /// A tool's version line (here strace's) was printed as it came: an escape sequence in it
    /// reached the terminal.
    @Test func aToolsVersionLineIsEscaped() throws {
        let unmounted = try FakeBinfmt(status: nil, entries: [:])
        defer { unmounted.remove() }
        let x86 = ["ASMRUN_HOST_ARCH": "x86_64", "ASMRUN_BINFMT_MISC_DIR": unmounted.folder]
        let result = try doctor(
            tools: ["nasm", "ld", "cc", "strace"], environment: x86, versions: ["strace": "strace 6.1\u{1b}[2J\r  ready: all fine"])
        #expect(!result.output.contains("\u{1b}") && !result.output.contains("\r"), "\(result.output)")
        #expect(result.output.contains("strace 6.1\\e[2J\\r  ready: all fine"), "\(result.output)")
    }

    @Test func armHostWithoutTheLibcSysrootIsNotReady() throws {
        let unmounted = try FakeBinfmt(status: nil, entries: [:])
        defer { unmounted.remove() }
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let tools = ["nasm", "x86_64-linux-gnu-ld", "x86_64-linux-gnu-gcc", "qemu-x86_64", "qemu-i386"]
        let arm = ["ASMRUN_HOST_ARCH": "aarch64", "ASMRUN_BINFMT_MISC_DIR": unmounted.folder, "QEMU_LD_PREFIX": root]
        let missing = try doctor(tools: tools, environment: arm)
        #expect(missing.output.contains("    libc programs: qemu runner unavailable: a libc program uses libc, and the x86 loader"))
        #expect(missing.status == 1)
        try Fixture.write("", to: root + "/lib64/ld-linux-x86-64.so.2")
        let ready = try doctor(tools: tools, environment: arm)
        #expect(ready.output.contains("libc programs: -L \(root))"))
        #expect(ready.output.contains("  auto elf64 picks: qemu (ASMRUN_RUNNER=binfmt would pick the kernel's binfmt_misc handler)"))
        #expect(ready.status == 0)
        // Asking for binfmt with no handler mounted: auto cannot run anything, and doctor says so.
        let binfmt = try doctor(tools: tools, environment: arm.merging(["ASMRUN_RUNNER": "binfmt"]) { $1 })
        #expect(binfmt.output.contains("not ready:\n  binfmt runner unavailable: binfmt_misc is not mounted at \(unmounted.folder)"))
        #expect(binfmt.status == 1)
    }

    /// `doctor` and `cache` answer `--help` with their usage, and doctor refuses arguments
    /// rather than ignoring them.
    @Test func doctorAndCacheReadTheirArguments() throws {
        func main(_ arguments: [String]) -> (status: Int32, output: String) {
            let console = Console(bufferingWithColor: false)
            let context = Context(
                environment: ["PATH": "/nonexistent", "NO_COLOR": "1"], launcher: PosixLauncher(path: nil), console: console)
            return (AsmRun.main(arguments, context: context), console.capturedOutput)
        }
        let bogus = try Fixture.asmrun(["doctor", "--bogus"])
        #expect(bogus.status == .exited(2) && bogus.stdout.isEmpty, "\(bogus)")
        #expect(bogus.stderr == "asmrun: doctor takes no arguments, not `--bogus`; run asmrun doctor alone\n", "\(bogus)")
        #expect(main(["doctor", "--help"]) == (0, Usage.doctor))
        #expect(main(["cache", "-h"]) == (0, Usage.cache))
    }

    /// An ARM host without the x86 GNU ld links with ld.lld, whose programs can behave otherwise.
    @Test func theLldFallbackIsNamedAsOne() throws {
        let unmounted = try FakeBinfmt(status: nil, entries: [:])
        defer { unmounted.remove() }
        let arm = ["ASMRUN_HOST_ARCH": "aarch64", "ASMRUN_BINFMT_MISC_DIR": unmounted.folder]
        let lld = try doctor(tools: ["nasm", "ld.lld", "qemu-x86_64", "qemu-i386"], environment: arm)
        #expect(lld.output.contains("/ld.lld (the fallback: it lays programs out otherwise than GNU ld"), "\(lld.output)")
        #expect(lld.output.contains("apt-get install binutils-x86-64-linux-gnu)\n"), "\(lld.output)")
        let gnu = try doctor(tools: ["nasm", "x86_64-linux-gnu-ld", "ld.lld", "qemu-x86_64", "qemu-i386"], environment: arm)
        #expect(gnu.output.contains("/x86_64-linux-gnu-ld\n"), "\(gnu.output)")
        #expect(!gnu.output.contains("the fallback"), "\(gnu.output)")
    }

    @Test func binfmtReportShowsEachX86Handler() throws {
        let unmounted = try FakeBinfmt(status: nil, entries: [:])
        defer { unmounted.remove() }
        let none = try doctor(tools: ["nasm"], environment: ["ASMRUN_BINFMT_MISC_DIR": unmounted.folder])
        #expect(none.output.contains("binfmt_misc: not mounted at \(unmounted.folder) (`mount -t binfmt_misc binfmt_misc"))
        #expect(!none.output.contains("none registered"))
        let disabled = FakeBinfmt.qemuI386.replacingOccurrences(of: "enabled", with: "disabled")
        let fake = try FakeBinfmt(
            entries: ["rosetta": FakeBinfmt.rosetta, "qemu-i386": disabled, "qemu-arm": FakeBinfmt.qemuArm, "wine": FakeBinfmt.wine])
        defer { fake.remove() }
        let report = try doctor(tools: ["nasm"], environment: ["ASMRUN_BINFMT_MISC_DIR": fake.folder, "ASMRUN_HOST_ARCH": "aarch64"])
        #expect(
            report.output.contains(
                """
                binfmt_misc: \(fake.folder), enabled
                  qemu-i386: disabled, i386, interpreter /usr/libexec/qemu-binfmt/i386-binfmt-P, flags PF
                  rosetta: enabled, x86-64, interpreter /mnt/lima-rosetta/rosetta, flags OCF
                  (2 handlers for other kinds of files)
                """))
        #expect(report.output.contains("  binfmt elf64: available (handler rosetta: /mnt/lima-rosetta/rosetta)"))
        #expect(report.output.contains("  binfmt elf32: binfmt runner unavailable: the i386 handler qemu-i386 is disabled"))
    }
}
