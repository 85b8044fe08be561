import Foundation
import Glibc
import Processes
import Support
import Testing

/// `asmrun FILE.asm` and signals, end to end with the built binary: Ctrl-C while it builds, and
/// the dispositions the programs it runs start with.
@Suite(.tags(.integration), .needsTools)
struct RunSignalTests {
    private let corpus = Fixture.corpus

    /// Run mode supervises nasm with a pidfd in its poll loop; a suite waits for it in `waitid`
    /// and its interrupt thread ends it.
    @Test(arguments: [false, true]) func interruptDuringTheBuildCleansUpAndExits130(suite: Bool) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // A nasm that says it is running, then never finishes: the interrupt must end it. Its
        // FIFO is beside it: a suite's build sees the tool's folder (read-only) and not the rest.
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        let ready = try Readiness(in: directory + "/bin")
        // Its pid as asmrun's tests see it: in a suite's build it is PID 1 of its own namespace,
        // so it is found by a duration only it sleeps (sleep adds its operands up).
        let token = "0.000\(getpid())"
        try Fixture.write("#!/bin/sh\necho $$ > \(ready.path)\nexec sleep 60 \(token)\n", to: directory + "/bin/nasm")
        chmod(directory + "/bin/nasm", 0o755)
        let sandbox = directory + "/tmp"
        try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
        var environment = Fixture.environment
        environment["TMPDIR"] = sandbox
        environment["PATH"] = directory + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixture.binary)
        process.arguments = (suite ? ["test"] : []) + [corpus + "/hello.asm", "--no-cache"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let nasm = try #require(ready.lines(1, within: 60).first.flatMap { pid_t($0) }, "nasm started")
        let interrupted = monotonicSeconds()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "status \(process.terminationStatus)")
        #expect(monotonicSeconds() - interrupted < 30, "nasm was ended, not waited for")
        if suite {
            #expect(BuildDaemonTests.survivors("60\u{0}" + token).isEmpty, "nasm still runs")
        } else {
            #expect(Readiness.isGone(nasm))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox).isEmpty, "scratch removed")
    }

    /// asmrun started with signals ignored (`nohup`, a CI runner's shell) and catching its own:
    /// what it runs starts with every signal at its default, whatever asmrun spawned before.
    @Test func programsStartWithNoSignalIgnored() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // A prefix runner stands for the program: it reports its own ignored signals.
        try Fixture.write("#!/bin/sh\ngrep '^SigIgn:' /proc/self/status\n", to: directory + "/report")
        chmod(directory + "/report", 0o755)
        let ignoring = "trap '' HUP USR2 PIPE; exec \"$0\" \"$@\""
        let arguments = ["-c", ignoring, Fixture.binary, corpus + "/hello.asm", "--no-cache", "--runner", directory + "/report"]
        let result = try PosixLauncher(path: nil).run(
            Command("/bin/sh", arguments, environment: Fixture.environment), options: LaunchOptions())
        #expect(result.termination == .exited(0), "\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "SigIgn:\t0000000000000000\n")
    }
}
