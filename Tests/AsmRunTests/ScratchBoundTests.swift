import Foundation
import Glibc
import Processes
import Support
import Testing

/// Issue 30: where no warden's tmpfs of `--scratch-limit` bytes holds a case's folder (no mount
/// namespaces, `--no-isolation`, `ASMRUN_WARDENS=0`), a case could write a file as large as its
/// file-size limit whatever the scratch limit said. Its RLIMIT_FSIZE is now at most the scratch
/// limit: of a 32 MiB file under `--scratch-limit 16M`, 16 MiB are written (the write comes
/// back short, and the program exits 1).
@Suite(.tags(.integration), .needsTools)
struct ScratchBoundTests {
    /// A suite whose one program writes one file of 32 MiB and expects to exit 0 (it exits 1
    /// when the write is short).
    private func suite() throws -> String {
        let directory = try Fixture.visibleDirectory()
        try Fixture.write(ScratchAttackTests.writer(files: 1, bytes: 32 << 20), to: directory + "/suite/big.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/suite/big.expect")
        return directory
    }

    /// `setting`: how the run does without wardens.
    @Test(arguments: ["ASMRUN_WARDENS=0", "--no-isolation"])
    func noFileOutgrowsTheScratchLimitWithoutAWarden(setting: String) throws {
        let directory = try suite()
        defer { Files.removeTree(directory) }
        let runners = ScratchAttackTests.runners
        let common = ["test", "suite", "--runner", runners, "--no-cache", "-j", "1"] + (setting.hasPrefix("--") ? [setting] : [])
        let environment = setting.hasPrefix("--") ? [:] : ["ASMRUN_WARDENS": "0"]
        let bounded = try Fixture.asmrun(common + ["--scratch-limit", "16M"], in: directory, environment: environment)
        #expect(bounded.status == .exited(1), "\(bounded.stdout)\(bounded.stderr)")
        let count = runners.split(separator: ",").count
        #expect(bounded.stdout.contains("0 passed, \(count) failed"), "\(bounded.stdout)")
        #expect(
            bounded.stdout.contains("FAIL  suite/big.asm:default [\(runners.replacingOccurrences(of: ",", with: ", "))]: status differs"),
            "\(bounded.stdout)")
        // Room for it: the file is written.
        let roomy = try Fixture.asmrun(common + ["--scratch-limit", "48M"], in: directory, environment: environment)
        #expect(roomy.status == .exited(0), "\(roomy.stdout)\(roomy.stderr)")
    }

    /// As nobody on a host refusing user namespaces: no namespaces at all, and still the bound.
    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func nobodysCasesAreBoundedWithoutNamespaces() throws {
        let directory = try suite()
        defer { Files.removeTree(directory) }
        try ExecutableFile.copy(Fixture.binary, to: directory + "/asmrun")
        mkdir(directory + "/tmp", 0o777)
        chmod(directory + "/tmp", 0o777)
        for path in ["/suite", "/suite/big.asm", "/suite/big.expect"] { chown(directory + path, 65534, 65534) }
        let result = try Fixture.asmrun(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", directory + "/asmrun", "test", "suite", "--runner",
                ScratchAttackTests.runners, "--scratch-limit", "16M", "--no-cache", "-j", "1",
            ], in: directory,
            environment: ["HOME": directory, "TMPDIR": directory + "/tmp", "ASMRUN_USER_NAMESPACES": "0"],
            executable: Fixture.locator.find("setpriv")!)
        #expect(result.status == .exited(1), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("status differs"), "\(result.stdout)")
    }
}
