import Glibc
import Processes
import Support
import Testing

/// Packaging/fetch-release.sh, the action's download path, against a release layout served from
/// a local folder (`TAG/asmrun-VERSION-ARCH-linux.tar.gz` and `TAG/SHA256SUMS`, as GitHub serves
/// a release's assets): no network. A tarball that does not match its checksum, a release
/// without this architecture and a bad version each fail with one line and install nothing.
@Suite(.serialized) struct ReleaseFetchTests {
    static let script = Fixture.packageRoot + "/Packaging/fetch-release.sh"

    /// A release v0.1.0 for x86_64 in `folder`: a tarball holding a stand-in asmrun that prints
    /// its version, and the SHA256SUMS of the tarball.
    private static func release(in folder: String) throws {
        let name = "asmrun-0.1.0-x86_64-linux"
        try Fixture.write("#!/bin/sh\necho 'asmrun 0.1.0'\n", to: "\(folder)/stage/\(name)/bin/asmrun")
        #expect(chmod("\(folder)/stage/\(name)/bin/asmrun", 0o755) == 0)
        #expect(Files.makeDirectories(folder + "/v0.1.0"))
        let made = try run(
            "tar -C \"$1/stage\" -czf \"$1/v0.1.0/\(name).tar.gz\" \(name) && cd \"$1/v0.1.0\" && sha256sum \(name).tar.gz >SHA256SUMS",
            [folder])
        #expect(made.status == .exited(0), "\(made)")
    }

    /// `sh -c script fetch arguments…` with `environment` over a PATH-only environment.
    private static func run(_ script: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (
        stdout: String, stderr: String, status: Termination
    ) {
        var environment = ["PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "TMPDIR": "/tmp"]
        for (key, value) in extra { environment[key] = value }
        var options = LaunchOptions()
        options.timeout = 60
        let result = try PosixLauncher(path: environment["PATH"]).run(
            Command("/bin/sh", ["-c", script, "fetch"] + arguments, environment: environment), options: options)
        return (String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self), result.termination)
    }

    private static func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        stdout: String, stderr: String, status: Termination
    ) {
        try run("sh \"\(script)\" \"$@\"", arguments, environment: environment)
    }

    @Test(arguments: ["path", "file URL"]) func fetchesAndChecksTheRelease(form: String) throws {
        let folder = try Fixture.temporaryDirectory()
        defer { Files.removeTree(folder) }
        try Self.release(in: folder + "/releases")
        let releases = form == "path" ? folder + "/releases" : "file://\(folder)/releases"
        let fetched = try Self.fetch(
            ["v0.1.0", folder + "/tool/asmrun"], environment: ["ASMRUN_RELEASES": releases, "ASMRUN_ARCH": "x86_64"])
        #expect(fetched.status == .exited(0), "\(fetched)")
        #expect(fetched.stderr == "")
        #expect(fetched.stdout.hasSuffix("checked against SHA256SUMS: \(folder)/tool/asmrun/bin/asmrun\n"), "\(fetched.stdout)")
        #expect(access(folder + "/tool/asmrun/bin/asmrun", X_OK) == 0)
    }

    @Test func aTarballThatDoesNotMatchItsChecksumIsNotInstalled() throws {
        let folder = try Fixture.temporaryDirectory()
        defer { Files.removeTree(folder) }
        try Self.release(in: folder)
        let tarball = folder + "/v0.1.0/asmrun-0.1.0-x86_64-linux.tar.gz"
        let expected = try Files.digest(tarball)
        try Files.append([0], to: tarball)
        let actual = try Files.digest(tarball)
        let fetched = try Self.fetch(["v0.1.0", folder + "/tool"], environment: ["ASMRUN_RELEASES": folder, "ASMRUN_ARCH": "x86_64"])
        #expect(fetched.status == .exited(1))
        #expect(
            fetched.stderr == """
                fetch-release.sh: asmrun-0.1.0-x86_64-linux.tar.gz does not match SHA256SUMS of v0.1.0 \
                (sha256 \(actual), SHA256SUMS says \(expected)): not installed

                """)
        #expect(!Files.exists(folder + "/tool"))
    }

    @Test func aMissingArchitectureOrChecksumLineSaysWhich() throws {
        let folder = try Fixture.temporaryDirectory()
        defer { Files.removeTree(folder) }
        try Self.release(in: folder)
        let arm = try Self.fetch(["v0.1.0", folder + "/tool"], environment: ["ASMRUN_RELEASES": folder, "ASMRUN_ARCH": "aarch64"])
        #expect(arm.status == .exited(1))
        #expect(arm.stderr.hasPrefix("fetch-release.sh: could not download file://\(folder)/v0.1.0/asmrun-0.1.0-aarch64-linux.tar.gz: "))
        #expect(arm.stderr.split(separator: "\n").count == 1, "\(arm.stderr)")
        try Fixture.write("0000  other.tar.gz\n", to: folder + "/v0.1.0/SHA256SUMS")
        let noLine = try Self.fetch(["v0.1.0", folder + "/tool"], environment: ["ASMRUN_RELEASES": folder, "ASMRUN_ARCH": "x86_64"])
        #expect(noLine.stderr == "fetch-release.sh: SHA256SUMS of v0.1.0 has no line for asmrun-0.1.0-x86_64-linux.tar.gz: not installed\n")
        #expect(noLine.status == .exited(1))
        #expect(!Files.exists(folder + "/tool"))
    }

    /// The tag: the `version` input, else the tag the action was used at; none (build from
    /// source) for a branch, a commit or `uses: ./`.
    @Test(arguments: [
        ([("ASMRUN_VERSION", "0.2.0")], "v0.2.0\n"),
        ([("ASMRUN_VERSION", "v0.2.0"), ("GITHUB_ACTION_PATH", "/w/_actions/o/asmrun/v0.1.0")], "v0.2.0\n"),
        ([("GITHUB_ACTION_PATH", "/home/runner/work/_actions/o/asmrun/v0.1.0")], "v0.1.0\n"),
        ([("GITHUB_ACTION_PATH", "/home/runner/work/_actions/o/asmrun/main")], ""),
        ([("GITHUB_ACTION_PATH", "/home/runner/work/_actions/o/asmrun/0123abcd0123abcd0123abcd0123abcd0123abcd")], ""),
        ([("GITHUB_ACTION_PATH", "/home/runner/work/asmrun/asmrun")], ""),
    ])
    func theTagComesFromTheInputOrTheActionsRef(environment: [(String, String)], tag: String) throws {
        let resolved = try Self.fetch(["--tag"], environment: Dictionary(uniqueKeysWithValues: environment))
        #expect(resolved.stdout == tag)
        #expect(resolved.stderr == "")
        #expect(resolved.status == .exited(0))
    }

    @Test func aVersionThatIsNoReleaseIsRefused() throws {
        let resolved = try Self.fetch(["--tag"], environment: ["ASMRUN_VERSION": "latest"])
        #expect(resolved.stderr == "fetch-release.sh: version 'latest' is not a release version such as 0.1.0\n")
        #expect(resolved.status == .exited(1))
    }
}
