import Foundation
import Glibc
import Processes
import Support
import Testing

/// The unprivileged path: asmrun run by `nobody` (root drops to it with setpriv). Here containment
/// falls back to RLIMIT_NPROC, the child subreaper and, where the kernel allows, an unprivileged
/// user namespace for the network and mount namespaces.
@Suite(
    .tags(.integration),
    .needsTools,
    .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
struct UnprivilegedTests {
    @Test func containmentWithoutRoot() throws {
        // Everything nobody needs lives in a world-readable scratch folder. One job at a time:
        // without cgroups an orphan is ended by whichever case finishes next.
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        chmod(base, 0o755)
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)  // through the spawn gate (no "Text file busy")
        let suite = base + "/suite"
        try FileManager.default.createDirectory(atPath: suite + "/tmp", withIntermediateDirectories: true)
        for name in ["escapee.asm", "orphan.asm", "network.asm", "fork_bomb.asm", "sys.inc", "escapee.expect", "orphan.expect"] {
            try FileManager.default.copyItem(atPath: HostileTests.hostile + "/" + name, toPath: suite + "/" + name)
        }
        try Fixture.write("[case default]\nstdout:\n| [..]\nstatus: exit 0\n", to: suite + "/network.expect")
        try Fixture.write("[case default]\nstatus: timeout\n", to: suite + "/fork_bomb.expect")
        for path in [suite, suite + "/tmp"] + (try FileManager.default.contentsOfDirectory(atPath: suite)).map({ suite + "/" + $0 }) {
            chown(path, 65534, 65534)
        }
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", binary, "test", suite, "--runner", "native", "--no-cache",
                    "-v", "-j", "1", "--json", suite + "/r.json",
                ],
                environment: [
                    "PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": suite, "TMPDIR": suite + "/tmp", "NO_COLOR": "1",
                ]),
            options: {
                var options = LaunchOptions(); options.timeout = 120; return options
            }())
        let output = String(decoding: result.stdout, as: UTF8.self)
        let errors = String(decoding: result.stderr, as: UTF8.self)
        #expect(result.termination == .exited(0), "\(output)\(errors)")
        #expect(errors.contains("note: not root: process counts bounded by RLIMIT_NPROC"))
        #expect(output.contains("escapee.asm:default [native]") && output.contains("asmrun ended 1 process the program left running"))
        // Whether the kernel lets nobody make a user namespace is asked of unshare(1), not of asmrun:
        // with one the network is gone, without one asmrun says so and the connection is refused.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        let network = (json["results"] as! [[String: Any]]).first { ($0["program"] as? String)?.hasSuffix("network.asm") == true }
        if try Self.nobodyMayUnshare() {
            #expect(!errors.contains("isolation unavailable"), "\(errors)")
            #expect(network?["stdout"] as? String == "unreachable\n")
        } else {
            #expect(errors.contains("isolation unavailable"), "\(errors)")
            #expect(network?["stdout"] as? String == "refused\n")
        }
        #expect(HostileTests.processes(under: suite + "/tmp").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: suite + "/tmp").isEmpty)
    }

    /// `unshare --user --net --mount true` as nobody: what the kernel allows, independently of asmrun.
    private static func nobodyMayUnshare() throws -> Bool {
        let probe = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "unshare", "--user", "--net", "--mount", "true"]),
            options: LaunchOptions())
        return probe.termination == .exited(0)
    }
}
