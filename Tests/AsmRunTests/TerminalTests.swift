import Foundation
import Glibc
import Processes
import Support
import Testing

/// A case reaching for the terminal asmrun runs in: `attack_tty` writes a forged verdict line to
/// /dev/tty and pushes a command into the terminal's input with TIOCSTI, and its second case
/// crashes so that the crash report runs it again under the debugger. asmrun runs under a
/// pseudo-terminal that is its controlling terminal, as root and as nobody, natively and under
/// qemu, with wardens and with an init per case: nothing reaches the screen or the input.
@Suite(.tags(.integration), .needsTools)
struct TerminalTests {
    /// With a warden per worker, with an init per case, and without the namespaces (where the
    /// host's /dev/tty is in sight and only the session keeps the terminal out of reach).
    @Test(arguments: [["ASMRUN_WARDENS": "1"], ["ASMRUN_WARDENS": "0"], ["--no-isolation": ""]])
    func casesHaveNoTerminal(setup: [String: String]) throws {
        try expectNoTerminal(as: nil, setup: setup)
    }

    @Test(.enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
    func casesHaveNoTerminalAsNobody() throws {
        try expectNoTerminal(as: 65534, setup: [:])
    }

    private func expectNoTerminal(as uid: uid_t?, setup: [String: String]) throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        chmod(base, 0o755)
        let suite = base + "/suite"
        try FileManager.default.createDirectory(atPath: suite + "/tmp", withIntermediateDirectories: true)
        for name in ["attack_tty.asm", "attack.inc", "sys.inc"] {
            try FileManager.default.copyItem(atPath: HostileTests.hostile + "/" + name, toPath: suite + "/" + name)
        }
        let contained = "stdout:\n| tty: none\n| tiocsti: refused\n"
        // The crash fails its case (a passing crash gets no report): the report runs it again.
        try Fixture.write(
            "[case default]\n\(contained)status: exit 0\n\n[case crash]\nargs: crash\n\(contained)status: exit 0\n",
            to: suite + "/attack_tty.expect")
        let binary = base + "/asmrun"
        try ExecutableFile.copy(Fixture.binary, to: binary)
        if let uid {
            for path in [suite, suite + "/tmp"] + (try FileManager.default.contentsOfDirectory(atPath: suite)).map({ suite + "/" + $0 }) {
                chown(path, uid, uid)
            }
        }
        let identity = uid.map { ["setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let report = suite + "/r.json"
        let run = try terminal.run(
            identity + [binary, "test", suite, "--runner", HostileTests.runnersForTests, "--no-cache", "--json", report]
                + setup.keys.filter { $0.hasPrefix("--") },
            environment: [
                "PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": suite, "TMPDIR": suite + "/tmp", "NO_COLOR": "1",
            ].merging(setup.filter { !$0.key.hasPrefix("--") }) { $1 })
        #expect(!run.screen.contains("forged-by-attack-tty"), "a case wrote to the terminal:\n\(run.screen)")
        #expect(!run.screen.contains("INJECTED"), "a case's input was echoed by the terminal:\n\(run.screen)")
        #expect(run.pendingInput.isEmpty, "a case pushed input into the terminal: \(run.pendingInput)")
        let json = try Fixture.json(report)
        let results = json["results"] as? [[String: Any]] ?? []
        #expect(results.count == 2 * HostileTests.runnersForTests.split(separator: ",").count, "\(run.screen)")
        for result in results {
            #expect(result["stdout"] as? String == "tty: none\ntiocsti: refused\n", "\(result)")
            if result["case"] as? String == "crash" {
                #expect(result["crash"] != nil, "the crash report ran the case again: \(result)")
            } else {
                #expect(result["status"] as? String == "pass", "\(result)")
            }
        }
    }
}

/// A pseudo-terminal pair; `run` makes the slave the controlling terminal of a new session.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    /// What a run showed on the terminal and left in its input queue.
    struct Run {
        var status: Int32
        var screen: String
        var pendingInput: String
    }

    init() throws {
        // posix_openpt and its kin by hand, as Glibc's module leaves them out: TIOCSPTLCK
        // unlocks the slave, TIOCGPTN names it.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENOTTY)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw POSIXError(.ENOTTY) }
    }

    func close() {
        Glibc.close(slave)
        Glibc.close(master)
    }

    /// Runs `arguments` with the slave as its standard streams and controlling terminal
    /// (`setsid --ctty`), reading the screen as it goes; then what waits in the input queue.
    func run(_ arguments: [String], environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixture.locator.find("setsid") ?? "/usr/bin/setsid")
        process.arguments = ["--fork", "--wait", "--ctty"] + arguments
        process.environment = environment
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        var screen: [UInt8] = []
        while process.isRunning { screen += read(master, waiting: 100) }
        process.waitUntilExit()
        screen += read(master, waiting: 0)
        let flags = fcntl(slave, F_GETFL)
        _ = fcntl(slave, F_SETFL, flags | O_NONBLOCK)
        let pending = read(slave, waiting: 0)
        return Run(
            status: process.terminationStatus, screen: String(decoding: screen, as: UTF8.self),
            pendingInput: String(decoding: pending, as: UTF8.self))
    }

    /// What `fd` has to read now, after waiting at most `milliseconds` for the first of it.
    private func read(_ fd: Int32, waiting milliseconds: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var wait = milliseconds
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, wait) > 0, entry.revents & Int16(POLLIN) != 0 else { return bytes }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let got = Glibc.read(fd, &buffer, buffer.count)
            guard got > 0 else { return bytes }
            bytes += buffer.prefix(got)
            wait = 0
        }
    }
}
