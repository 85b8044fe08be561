import Foundation
import Glibc
import Testing

@testable import Sandbox
@testable import Support

/// The hostile battery in `Tests/Hostile`: whatever a program does, asmrun reports it precisely
/// and leaves no process, file or core dump behind. Each test runs the built binary with a
/// private TMPDIR, so everything asmrun creates can be inspected afterwards.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"))
struct HostileTests {
    static let hostile = Fixture.packageRoot + "/Tests/Hostile"
    private static let runners = Fixture.nativeHost ? "native,qemu" : "qemu"

    /// One run of `asmrun test` on hostile programs, and what it left behind.
    struct Outcome {
        var status: Termination
        var output: String
        var errors: String
        var json: [String: Any]
        var seconds: Double
        var leftoverProcesses: [pid_t]
        var leftoverFiles: [String]

        func result(_ program: String, _ runner: String) -> [String: Any]? {
            (json["results"] as? [[String: Any]])?.first {
                ($0["program"] as? String)?.hasSuffix("/" + program + ".asm") == true && $0["runner"] as? String == runner
            }
        }
    }

    /// Processes whose environment points into `directory`: with `TMPDIR` (the default) asmrun,
    /// its tools and its cases; with `HOME`, only the cases (asmrun gives each its folder as HOME).
    static func processes(under directory: String, variable: String = "TMPDIR") -> [pid_t] {
        let needle = Array("\0\(variable)=\(directory)".utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                ([0] + [UInt8](environ)).firstRange(of: needle) != nil
            else { return nil }
            return Fixture.liveProcesses(inGroup: getpgid(pid)).contains(pid) ? pid : nil
        }
    }

    static func run(_ programs: [String], _ extra: [String] = [], runners: String = runners) throws -> Outcome {
        let scratch = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(scratch) }
        let report = scratch + "/report.json"
        let sandbox = scratch + "/tmp"
        try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
        let start = monotonicSeconds()
        let result = try Fixture.asmrun(
            ["test"] + programs.map { hostile + "/" + $0 + ".asm" } + ["--runner", runners, "--json", report, "--no-cache"] + extra,
            environment: ["TMPDIR": sandbox])
        let seconds = monotonicSeconds() - start
        let json = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))) as? [String: Any] ?? [:]
        return Outcome(
            status: result.status, output: result.stdout, errors: result.stderr, json: json, seconds: seconds,
            leftoverProcesses: processes(under: sandbox),
            leftoverFiles: (try? FileManager.default.contentsOfDirectory(atPath: sandbox)) ?? ["<unreadable>"])
    }

    private func expectClean(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.leftoverProcesses.isEmpty, "processes left: \(outcome.leftoverProcesses)", sourceLocation: sourceLocation)
        #expect(outcome.leftoverFiles.isEmpty, "files left: \(outcome.leftoverFiles)", sourceLocation: sourceLocation)
        let cores = (try? FileManager.default.contentsOfDirectory(atPath: Self.hostile))?.filter { $0.contains("core") } ?? []
        #expect(cores.isEmpty, "core files: \(cores)", sourceLocation: sourceLocation)
    }

    @Test func infiniteLoopsTimeOutAndTheirTreeIsGone() throws {
        let outcome = try Self.run(["spin", "ignore_term"])
        for program in ["spin", "ignore_term"] {
            #expect(outcome.result(program, "qemu")?["status"] as? String == "pass", "status: timeout is the expectation")
            #expect(outcome.result(program, "qemu")?["exit"] as? String == "timeout")
        }
        // Two programs with a 1 s limit and a 0.5 s grace, on two runners, -j = cores.
        #expect(outcome.seconds < 10)
        expectClean(outcome)
    }

    @Test func runawayOutputIsCutAtTheLimit() throws {
        let outcome = try Self.run(["output_bomb", "stderr_bomb"], ["--output-limit", "256K"])
        for program in ["output_bomb", "stderr_bomb"] {
            let result = try #require(outcome.result(program, "qemu"))
            #expect(result["status"] as? String == "xfail")
        }
        // Without the xfail directive the message is the verdict.
        let strict = try Self.run(["output_bomb"], ["--output-limit", "256K", "--filter", "output_bomb"])
        #expect(strict.output.contains("expected failure: exceeds the output limit by design"))
        expectClean(outcome)
    }

    @Test func forkBombsThreadStormsAndHogsAreContained() throws {
        // Without root, RLIMIT_NPROC is shared by all of the user's processes: one case at a time.
        let outcome = try Self.run(["fork_bomb", "thread_storm", "memory_hog", "fsize_bomb"], geteuid() == 0 ? [] : ["-j", "1"])
        #expect(outcome.status == .exited(0), "\(outcome.output)")
        if Fixture.nativeHost {
            #expect(outcome.result("memory_hog", "native")?["stdout"] as? String == "960 MiB\n", "1 GiB address space natively")
        }
        #expect(outcome.result("fsize_bomb", "qemu")?["exit"] as? String == "signal SIGXFSZ")
        #expect(outcome.seconds < 30)
        expectClean(outcome)
    }

    @Test func nothingOutlivesTheCase() throws {
        let outcome = try Self.run(["escapee", "orphan"])
        #expect(outcome.status == .exited(0), "\(outcome.output)")
        if geteuid() == 0 {
            // The daemon left its process group with setsid: only the case's cgroup finds it,
            // and it is ended when its case ends, not at the end of the run.
            #expect(outcome.result("escapee", "qemu")?["detail"] as? String == "asmrun ended 1 process the program left running")
        }
        expectClean(outcome)
    }

    @Test func oddBehaviourIsReportedAsWhatHappened() throws {
        let programs = ["stdin_reader", "close_stdout", "fd_writer", "self_signal", "exec_other", "long_line"]
        let outcome = try Self.run(programs)
        #expect(outcome.status == .exited(0), "\(outcome.output)")
        #expect(outcome.result("self_signal", "qemu")?["exit"] as? String == "signal SIGUSR1")
        #expect(outcome.result("fd_writer", "qemu")?["stdout"] as? String == "-------\n", "no descriptor beyond 2 is open")
        #expect(outcome.result("stdin_reader", "qemu")?["exit"] as? String == "exit 0", "empty stdin is EOF at once")
        expectClean(outcome)
    }

    @Test(.enabled(if: geteuid() == 0, "isolation needs root; without it asmrun notes that it is off"))
    func noNetworkAndNoWritesOutsideTheCase() throws {
        let target = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(target) }
        let suite = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(suite) }
        for name in ["writes_files", "network", "sys.inc"] {
            let file = name.hasSuffix(".inc") ? name : name + ".asm"
            try FileManager.default.copyItem(atPath: Self.hostile + "/" + file, toPath: suite + "/" + file)
        }
        try Fixture.write(
            "[case default]\nargs: \(target)/escaped\nstdout:\n| cwd: ok\n| outside: blocked\nstatus: exit 0\n",
            to: suite + "/writes_files.expect")
        try Fixture.write("[case default]\nstdout:\n| unreachable\nstatus: exit 0\n", to: suite + "/network.expect")
        let result = Fixture.test([suite, "--runner", Self.runners])
        #expect(result.status == 0, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: target + "/escaped"))
        #expect(!result.errors.contains("note:"), "every containment layer is available as root here: \(result.errors)")
        // --no-isolation gives the network and file system back.
        let open = Fixture.test([suite, "--runner", Self.runners, "--no-isolation"])
        #expect(open.status == 1)
        #expect(open.output.contains("+outside: written"))
        #expect(open.output.contains("-unreachable"))
    }

    @Test func interruptEndsEverythingAndStillWritesReports() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(suite) }
        let sleeper = "; asmrun: timeout 60\n%include \"sys.inc\"\nglobal _start\n_start:\n    sleep_seconds 30\n    exit_with 0\n"
        try FileManager.default.copyItem(atPath: Self.hostile + "/sys.inc", toPath: suite + "/sys.inc")
        for index in 0..<4 {
            try Fixture.write(sleeper, to: suite + "/sleep\(index).asm")
            try Fixture.write("[case default]\nstatus: exit 0\n", to: suite + "/sleep\(index).expect")
        }
        let sandbox = suite + "/tmp"
        try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
        var environment = Fixture.environment
        environment["TMPDIR"] = sandbox
        let process = try Self.start(
            [Fixture.binary, "test", suite, "--runner", "qemu", "-j", "2", "--json", suite + "/r.json", "--no-cache"], environment)
        // Wait (bounded) until two cases are running, then interrupt. (Cases only start once
        // asmrun's handler is installed; `swift test` may run us with SIGINT ignored, so an
        // earlier SIGINT could be lost.)
        let deadline = monotonicSeconds() + 30
        while Self.processes(under: sandbox, variable: "HOME").count < 2 && monotonicSeconds() < deadline { usleep(10_000) }
        #expect(Self.processes(under: sandbox, variable: "HOME").count >= 2)
        let interrupted = monotonicSeconds()
        kill(process.processIdentifier, SIGINT)
        #expect(Self.exitStatus(process) == .exited(130))
        #expect(monotonicSeconds() - interrupted < 5)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        #expect(json["complete"] as? Bool == false)
        #expect(Self.processes(under: sandbox).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox).isEmpty, "scratch removed")
    }

    @Test func concurrentRunsShareTheCacheAndExpectationsSafely() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(suite) }
        for name in ["hello", "echo", "factorial", "args", "fizzbuzz"] {
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).asm", toPath: suite + "/\(name).asm")
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).expect", toPath: suite + "/\(name).expect")
        }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/lib", toPath: suite + "/lib")
        let before = try Self.snapshot(suite)
        let cache = suite + "-cache"
        defer { TemporaryDirectory.removeTree(cache) }
        let processes = try (0..<4).map { index in
            try Self.start(
                [Fixture.binary, "test", suite, "--runner", "qemu", "--cache-dir", cache] + (index % 2 == 0 ? ["--update"] : []),
                Fixture.environment)
        }
        for process in processes {
            #expect(Self.exitStatus(process) == .exited(0))
        }
        #expect(try Self.snapshot(suite) == before, "expectations unchanged and never truncated")
    }

    private static func snapshot(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".expect") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    /// Starts a process with its output discarded (test code: Foundation's Process is fine here).
    private static func start(_ arguments: [String], _ environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private static func exitStatus(_ process: Process) -> Termination {
        process.waitUntilExit()
        return process.terminationReason == .exit
            ? .exited(process.terminationStatus) : .signaled(process.terminationStatus)
    }
}

/// The unprivileged path: asmrun run by `nobody` (root drops to it with setpriv). Here containment
/// falls back to RLIMIT_NPROC, the child subreaper and, where the kernel allows, an unprivileged
/// user namespace for the network and mount namespaces.
@Suite(
    .tags(.integration),
    .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"),
    .enabled(if: geteuid() == 0 && Fixture.locator.find("setpriv") != nil, "needs root and setpriv to run asmrun as nobody"))
struct UnprivilegedTests {
    @Test func containmentWithoutRoot() throws {
        // Everything nobody needs lives in a world-readable scratch folder. One job at a time:
        // without cgroups an orphan is ended by whichever case finishes next.
        let base = try Fixture.temporaryDirectory()
        defer { TemporaryDirectory.removeTree(base) }
        chmod(base, 0o755)
        let binary = base + "/asmrun"
        try FileManager.default.copyItem(atPath: Fixture.binary, toPath: binary)
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
        // With an unprivileged user namespace the network is gone; without one asmrun says so.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        let network = (json["results"] as! [[String: Any]]).first { ($0["program"] as? String)?.hasSuffix("network.asm") == true }
        let expected = errors.contains("isolation unavailable") ? "refused\n" : "unreachable\n"
        #expect(network?["stdout"] as? String == expected)
        #expect(HostileTests.processes(under: suite + "/tmp").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: suite + "/tmp").isEmpty)
    }
}
