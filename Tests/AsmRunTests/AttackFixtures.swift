import Foundation
import Glibc
import Processes
import Support

/// What the attacks of `SandboxTests` aim at, owned by one user, and runs of `asmrun test` on
/// them as that user; `close` removes it all.
final class AttackFixtures {
    let uid: uid_t
    let base: String
    /// A folder outside every case, writable by the user: nothing may appear in it.
    let outside: String
    /// A file only root may read (mode 0600), as /etc/shadow is.
    let privateFile: String
    let socketDirectory: String
    let listener: Int32
    let victim: Process

    /// What one run did and left behind.
    struct Run {
        var status: Termination
        var output: String
        var json: [String: Any]
        var leftovers: [pid_t]
        var scratchLeft: [String]
    }

    init(uid: uid_t) throws {
        self.uid = uid
        base = try Self.directory(in: "/var/tmp")
        outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        chmod(outside, 0o777)
        privateFile = base + "/private"
        try Fixture.write("root's secret\n", to: privateFile)
        chown(privateFile, 0, 0)
        chmod(privateFile, 0o600)
        socketDirectory = try Self.directory(in: "/tmp")
        listener = try Self.listen(at: socketDirectory + "/host.sock")
        let queue = msgget(SandboxTests.queueKey, IPC_CREAT | 0o600)
        var info = msqid_ds()
        if queue >= 0 && msgctl(queue, IPC_STAT, &info) == 0 {
            info.msg_perm.uid = uid
            _ = msgctl(queue, IPC_SET, &info)
        }
        victim = Process()
        victim.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        victim.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "sleep", "600"]
        try victim.run()
    }

    func close() {
        // SIGKILL: the test process may have SIGTERM blocked, and the child inherits the mask.
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        let queue = msgget(SandboxTests.queueKey, 0)
        if queue >= 0 { _ = msgctl(queue, IPC_RMID, nil) }
        Glibc.close(listener)
        Files.removeTree(socketDirectory)
        Files.removeTree(base)
    }

    /// `asmrun test` as the user on `programs` (their cases' contained output as expectations).
    func run(
        _ programs: [(String, [(name: String, args: String, stdout: String)])], jobs: String, runners: String,
        environment extra: [String: String] = [:]
    ) throws -> Run {
        let work = try Self.directory(in: base)
        let suite = work + "/suite"
        let scratch = work + "/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
        for name in ["sys.inc", "attack.inc"] + programs.map({ $0.0 + ".asm" }) {
            try FileManager.default.copyItem(atPath: HostileTests.hostile + "/" + name, toPath: suite + "/" + name)
        }
        for (program, cases) in programs {
            try Fixture.write(expectation(program, cases), to: suite + "/" + program + ".expect")
        }
        let binary = work + "/asmrun"
        // Through the spawn gate: a test spawning meanwhile must not inherit it open for writing
        // (exec would then fail with "Text file busy").
        try ExecutableFile.copy(Fixture.binary, to: binary)
        for path in [work] + (FileManager.default.subpaths(atPath: work) ?? []).map({ work + "/" + $0 }) { chown(path, uid, uid) }
        let report = work + "/report.json"
        let arguments = [binary, "test", suite, "--runner", runners, "--no-cache", "-j", jobs, "--json", report]
        let result = try PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + arguments,
                environment: ["PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": suite, "TMPDIR": scratch, "NO_COLOR": "1"]
                    .merging(extra) { $1 }),
            options: {
                var options = LaunchOptions(); options.timeout = 120; return options
            }())
        let json = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))) as? [String: Any] ?? [:]
        return Run(
            status: result.termination, output: String(decoding: result.stdout + result.stderr, as: UTF8.self), json: json,
            leftovers: Self.leftovers(scratch: scratch),
            scratchLeft: (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? ["<unreadable>"])
    }

    private func expectation(_ program: String, _ cases: [(name: String, args: String, stdout: String)]) -> String {
        let values = [
            "{outside}": outside, "{socket}": socketDirectory + "/host.sock", "{victim}": "\(victim.processIdentifier)",
            "{queue}": "\(SandboxTests.queueKey)", "{private}": privateFile,
        ]
        return cases.map { testCase in
            var args = testCase.args
            for (hole, value) in values { args = args.replacingOccurrences(of: hole, with: value) }
            var text = "[case \(testCase.name)]\n" + (args.isEmpty ? "" : "args: \(args)\n")
            if !testCase.stdout.isEmpty { text += "stdout:\n" + testCase.stdout.split(separator: "\n").map { "| \($0)\n" }.joined() }
            // qemu asserts in the children whose thread it cannot make once the limit is reached.
            if program == "attack_forks" { text += "stderr @qemu:\n| [...]\n" }
            return text + "status: exit 0\n"
        }.joined(separator: "\n")
    }

    /// Live processes named as the attacks' daemons, or carrying the run's TMPDIR.
    static func leftovers(scratch: String) -> [pid_t] {
        let daemon = Array("asmrun-hostile-daemon".utf8)
        let named = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let cmdline = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                [UInt8](cmdline).starts(with: daemon),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8), !stat.contains(") Z ")
            else { return nil }
            return pid
        }
        return named + HostileTests.processes(under: scratch)
    }

    private static func directory(in parent: String) throws -> String {
        var template = Array("\(parent)/asmrun-attack-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let path = String(cString: made)
        chmod(path, 0o755)
        return path
    }

    private static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        chmod(path, 0o777)
        return fd
    }
}
