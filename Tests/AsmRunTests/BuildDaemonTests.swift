import Foundation
import Glibc
import Processes
import Support
import Testing

/// Issue 30: a build's tool that starts a daemon (an ld plugin's constructor, a `-wrapper`; here
/// a stand-in for nasm, ld or cc) left it running after asmrun exited, out of the tool's process
/// group and session, waiting to rewrite the results. Each tool of a contained build is PID 1 of
/// a PID namespace of its own: the daemon dies with it. As root and as nobody.
@Suite(.tags(.integration), .needsTools)
struct BuildDaemonTests {
    /// A stand-in for `tool` that starts a daemon (a session of its own, stdio closed) and waits
    /// until it runs under its telling name, then runs the real tool. The daemon blocks reading
    /// `fifo`; woken, it writes `marker`.
    static func standIn(for tool: String, token: String, fifo: String, marker: String) -> String {
        """
        #!/bin/sh
        ready="$TMPDIR/daemon.$$"
        mkfifo "$ready" || exit 3
        setsid sh -c 'echo up > "$1"; exec </dev/null >/dev/null 2>&1; read line < "$2"; echo owned > "$3"' \
            \(token) "$ready" '\(fifo)' '\(marker)' &
        read up < "$ready"
        rm -f "$ready"
        exec \(Fixture.locator.find(tool) ?? "/usr/bin/" + tool) "$@"

        """
    }

    /// A suite whose build runs the stand-in for `tool`, in a folder anyone may read.
    static func layout(tool: String, token: String) throws -> (base: String, fifo: String, marker: String) {
        let base = try Fixture.visibleDirectory()
        let fifo = base + "/tools/wake.fifo"
        let marker = base + "/cache/marker"
        try Fixture.write(standIn(for: tool, token: token, fifo: fifo, marker: marker), to: base + "/tools/" + tool)
        chmod(base + "/tools/" + tool, 0o755)
        guard mkfifo(fifo, 0o666) == 0, chmod(fifo, 0o666) == 0 else { throw POSIXError(.EEXIST) }
        if tool == "cc" {
            try Fixture.write("int main(void) { return 0; }\n", to: base + "/suite/c/main.c")
            try Fixture.write("section .note.GNU-stack\n", to: base + "/suite/c/driver.asm")
            try Fixture.write("[case default]\nstatus: exit 0\n", to: base + "/suite/c/c.expect")
        } else {
            try Fixture.write(Fixture.helloSuite, in: base + "/suite")
        }
        mkdir(base + "/cache", 0o777)
        chmod(base + "/cache", 0o777)
        for folder in [base + "/tools", base + "/suite", base + "/suite/c"] { chmod(folder, 0o755) }
        return (base, fifo, marker)
    }

    /// Processes whose command line holds `token`.
    static func survivors(_ token: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name in
            guard let pid = pid_t(name), let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")),
                String(decoding: line, as: UTF8.self).contains(token)
            else { return nil }
            return pid
        }
    }

    /// Once asmrun exited: no daemon holds the FIFO open (a writer's open finds no reader) and
    /// none runs under its name. A survivor is woken (it writes the marker) and ended.
    static func expectNoDaemon(token: String, fifo: String, marker: String, _ output: String) {
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        let opened = writer >= 0
        #expect(!opened, "a daemon of the build outlived asmrun, waiting on the FIFO: \(output)")
        if opened {
            _ = write(writer, "go\n", 3)
            close(writer)
        }
        let left = survivors(token)
        #expect(left.isEmpty, "processes of the build outlived asmrun: \(left)")
        for pid in left { kill(pid, SIGKILL) }
        #expect(opened || !FileManager.default.fileExists(atPath: marker))
    }

    @Test(arguments: ["nasm", "ld", "cc"])
    func aDaemonTheBuildStartsEndsWithItsTool(tool: String) throws {
        let token = "asmrun-build-daemon-\(getpid())-\(tool)"
        let (base, fifo, marker) = try Self.layout(tool: tool, token: token)
        defer { Files.removeTree(base) }
        let path = base + "/tools:" + (Fixture.environment["PATH"] ?? "/usr/bin:/bin")
        let (stdout, stderr, status) = try Fixture.asmrun(
            ["test", "suite", "--cache-dir", base + "/cache", "--runner", Fixture.runner], in: base, environment: ["PATH": path])
        #expect(status == .exited(0), "\(stdout)\(stderr)")
        Self.expectNoDaemon(token: token, fifo: fifo, marker: marker, stdout + stderr)
    }

    @Test(
        .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"),
        arguments: ["nasm", "ld"])
    func nobodysBuildDaemonsEndToo(tool: String) throws {
        let token = "asmrun-build-daemon-\(getpid())-nobody-\(tool)"
        let (base, fifo, marker) = try Self.layout(tool: tool, token: token)
        defer { Files.removeTree(base) }
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)
        mkdir(base + "/tmp", 0o777)
        chmod(base + "/tmp", 0o777)
        var environment = Fixture.environment
        environment["HOME"] = base
        environment["TMPDIR"] = base + "/tmp"
        environment["PATH"] = base + "/tools:" + (Fixture.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", binary, "test", "suite", "--cache-dir", base + "/cache",
                    "--runner", Fixture.runner,
                ],
                environment: environment, workingDirectory: base),
            options: LaunchOptions())
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        #expect(result.termination == .exited(0), "\(output)")
        Self.expectNoDaemon(token: token, fifo: fifo, marker: marker, output)
    }

    /// Where no view can be made (a host refusing user namespaces, as nobody), a run says so in
    /// one line, however many folders it builds; a contained run says nothing of the kind.
    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func uncontainedBuildsAreNotedOncePerRun() throws {
        let base = try Fixture.visibleDirectory()
        defer { Files.removeTree(base) }
        for name in ["alice", "bob", "carol"] {
            try Fixture.write(Fixture.helloSuite, in: base + "/" + name)
            chmod(base + "/" + name, 0o755)
        }
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)
        mkdir(base + "/tmp", 0o777)
        chmod(base + "/tmp", 0o777)
        let arguments = ["test", "alice", "bob", "carol", "--no-cache", "--runner", Fixture.runner]
        let refused = try Fixture.asmrun(
            ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments, in: base,
            environment: ["HOME": base, "TMPDIR": base + "/tmp", "ASMRUN_USER_NAMESPACES": "0"],
            executable: Fixture.locator.find("setpriv")!)
        #expect(refused.status == .exited(0), "\(refused.stdout)\(refused.stderr)")
        let notes = refused.stderr.components(separatedBy: "note: builds are not contained on this host").count - 1
        #expect(notes == 1, "\(refused.stderr)")
        let contained = try Fixture.asmrun(arguments, in: base)
        #expect(contained.status == .exited(0), "\(contained.stdout)\(contained.stderr)")
        #expect(!contained.stderr.contains("builds are not contained"), "\(contained.stderr)")
    }
}
