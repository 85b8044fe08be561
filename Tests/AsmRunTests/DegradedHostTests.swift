import Foundation
import Glibc
import Processes
import Support
import Testing

@testable import Sandbox

/// A host that refuses user namespaces to a user (simulated with ASMRUN_USER_NAMESPACES=0, run
/// as nobody): cases get no /proc of their own, so untrusted code is refused with one line, and a
/// trusted run still works with asmrun's environment closed (it is not dumpable while cases run).
@Suite struct DegradedHostTests {
    @Test func hidepidIsReadFromMountinfo() {
        let line = { (options: String) in "22 27 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc \(options)\n" }
        #expect(ProcView.hostHidepid(mountinfo: line("rw")) == 0)
        #expect(ProcView.hostHidepid(mountinfo: line("rw,hidepid=2")) == 2)
        #expect(ProcView.hostHidepid(mountinfo: line("rw,hidepid=invisible,gid=4")) == 2)
        #expect(ProcView.hostHidepid(mountinfo: line("rw,hidepid=ptraceable")) == 4)
        #expect(ProcView.hostHidepid(mountinfo: "30 22 0:25 / /tmp/proc rw - proc proc rw,hidepid=2\n" + line("rw")) == 0)
    }

    @Test func whatProtectsProc() {
        #expect(ProcView(privateProc: true, root: false, hidepid: 0).protects)
        #expect(ProcView(privateProc: false, root: true, hidepid: 2).protects)
        #expect(!ProcView(privateProc: false, root: true, hidepid: 0).protects)
        #expect(!ProcView(privateProc: false, root: false, hidepid: 2).protects, "hidepid hides only other users' processes")
        let refusal = ProcView(privateProc: false, root: false, hidepid: 2).untrustedRefusal
        #expect(refusal?.fix.contains("apparmor_restrict_unprivileged_userns=0") == true)
    }

    @Suite(
        .tags(.integration),
        .needsTools,
        .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    struct AsNobody {
        /// `asmrun test` as nobody with user namespaces refused; status, stdout, stderr.
        private static func run(_ extra: [String], runner: String) throws -> (Termination, String, String) {
            let base = try Fixture.temporaryDirectory()
            defer { Files.removeTree(base) }
            chmod(base, 0o755)
            let binary = base + "/asmrun"
            try ExecutableFile.copy(Fixture.binary, to: binary)
            let suite = base + "/suite"
            try FileManager.default.createDirectory(atPath: suite + "/tmp", withIntermediateDirectories: true)
            for name in ["attack_proc_parent.asm", "attack.inc", "sys.inc"] {
                try FileManager.default.copyItem(atPath: HostileTests.hostile + "/" + name, toPath: suite + "/" + name)
            }
            // The word looked for is one of asmrun's arguments: its command line stays readable.
            let expected = "[case default]\nargs: --runner\nstdout:\n| cmdline: asmrun's\n| environ: hidden\nstatus: exit 0\n"
            try Fixture.write(expected, to: suite + "/attack_proc_parent.expect")
            for path in [suite, suite + "/tmp"] + (try FileManager.default.contentsOfDirectory(atPath: suite)).map({ suite + "/" + $0 }) {
                chown(path, 65534, 65534)
            }
            let arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "test", suite, "--runner", runner, "--no-cache"]
            let result = try PosixLauncher(path: "/usr/bin:/bin").run(
                Command(
                    "setpriv", arguments + extra,
                    environment: [
                        "PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": suite, "TMPDIR": suite + "/tmp",
                        "NO_COLOR": "1", "ASMRUN_USER_NAMESPACES": "0", "ASMRUN_SECRET": "token",
                    ]),
                options: {
                    var options = LaunchOptions(); options.timeout = 120; return options
                }())
            return (result.termination, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
        }

        @Test(arguments: ["native", "qemu"])
        func aTrustedRunWorksAndCannotReadAsmrunsEnvironment(runner: String) throws {
            let (status, output, errors) = try Self.run([], runner: runner)
            #expect(status == .exited(0), "\(output)\(errors)")
            #expect(output.contains("PASS"), "\(output)")
            #expect(errors.contains("isolation unavailable"), "the host is degraded: \(errors)")
        }

        @Test(arguments: ["native", "qemu"])
        func untrustedCodeIsRefusedWithOneLine(runner: String) throws {
            let (status, output, errors) = try Self.run(["--untrusted"], runner: runner)
            #expect(status == .exited(2))
            #expect(!output.contains("PASS") && !output.contains("FAIL"), "no case ran: \(output)")
            let refusals = errors.split(separator: "\n").filter { $0.hasPrefix("asmrun: untrusted code refused") }
            #expect(refusals.count == 1, "\(errors)")
            #expect(refusals.first?.contains("kernel.apparmor_restrict_unprivileged_userns=0") == true)
        }

        @Test func untrustedCodeRunsWhenTheUserAcceptsIt() throws {
            let (status, output, errors) = try Self.run(["--untrusted", "--no-isolation"], runner: "native")
            #expect(status == .exited(0), "\(output)\(errors)")
        }
    }
}
