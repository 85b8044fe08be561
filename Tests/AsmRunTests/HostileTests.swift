import Foundation
import Glibc
import Processes
import Support
import Testing

/// The hostile battery in `Tests/Hostile`: whatever a program does, asmrun reports it precisely
/// and leaves no process, file or core dump behind. Each test runs the built binary with a
/// private TMPDIR, so everything asmrun creates can be inspected afterwards.
@Suite(.tags(.integration), .needsTools)
struct HostileTests {
    static let hostile = Fixture.packageRoot + "/Tests/Hostile"
    private static let runners = runnersForTests
    /// native and qemu where the host runs x86_64, else qemu.
    static let runnersForTests = Fixture.nativeHost ? "native,qemu" : "qemu"

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

    static func run(
        _ programs: [String], _ extra: [String] = [], runners: String = runners, from directory: String = hostile
    ) throws -> Outcome {
        let scratch = try Fixture.temporaryDirectory()
        defer { Files.removeTree(scratch) }
        let report = scratch + "/report.json"
        let sandbox = scratch + "/tmp"
        try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
        let start = monotonicSeconds()
        let result = try Fixture.asmrun(
            ["test"] + programs.map { directory + "/" + $0 + ".asm" } + ["--runner", runners, "--json", report, "--no-cache"] + extra,
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
        // Two programs with a 1 s limit and a 0.5 s grace, on two runners: about 3 s at -j2.
        #expect(outcome.seconds < 30)
        expectClean(outcome)
    }

    @Test func runawayOutputIsCutAtTheLimit() throws {
        let outcome = try Self.run(["output_bomb", "stderr_bomb"], ["--output-limit", "256K"])
        for program in ["output_bomb", "stderr_bomb"] {
            let result = try #require(outcome.result(program, "qemu"))
            #expect(result["status"] as? String == "xfail")
        }
        expectClean(outcome)
        // Without the xfail directive the limit is the verdict.
        let strictSuite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(strictSuite) }
        let source = try String(contentsOfFile: Self.hostile + "/output_bomb.asm", encoding: .utf8)
        try Fixture.write(source.replacingOccurrences(of: "; asmrun: xfail", with: "; was xfail"), to: strictSuite + "/output_bomb.asm")
        try FileManager.default.copyItem(atPath: Self.hostile + "/output_bomb.expect", toPath: strictSuite + "/output_bomb.expect")
        try FileManager.default.copyItem(atPath: Self.hostile + "/sys.inc", toPath: strictSuite + "/sys.inc")
        let strict = try Self.run(["output_bomb"], ["--output-limit", "256K"], from: strictSuite)
        #expect(strict.status == .exited(1))
        let result = try #require(strict.result("output_bomb", "qemu"))
        #expect(result["status"] as? String == "fail")
        #expect((result["message"] as? String)?.hasPrefix("output limit exceeded: more than 262144 bytes on stdout or stderr") == true)
        expectClean(strict)
    }

    @Test func forkBombsThreadStormsAndHogsAreContained() throws {
        // Without root, RLIMIT_NPROC is shared by all of the user's processes: one case at a time.
        // memory_hog asks for 60 s (`; asmrun: timeout`): the ceiling lets it.
        let outcome = try Self.run(
            ["fork_bomb", "thread_storm", "memory_hog", "fsize_bomb"], ["--timeout", "60"] + (geteuid() == 0 ? [] : ["-j", "1"]))
        #expect(outcome.status == .exited(0), "\(outcome.output)")
        #expect(outcome.result("memory_hog", "qemu")?["stdout"] as? String == "4096 MiB\n", "the emulator's 6 GiB leave the guest 4 GiB")
        #expect(outcome.result("fsize_bomb", "qemu")?["exit"] as? String == "signal SIGXFSZ")
        // Two 3 s timeouts and two quick programs per runner: about 6 s at -j2, 12 s at -j1.
        #expect(outcome.seconds < 120)
        expectClean(outcome)
    }

    @Test(.needsNativeHost)
    func nativeAddressSpaceIsOneGiB() throws {
        let outcome = try Self.run(["memory_hog"], ["--timeout", "60"], runners: "native")
        #expect(outcome.result("memory_hog", "native")?["stdout"] as? String == "960 MiB\n")
        expectClean(outcome)
    }

    @Test func nothingOutlivesTheCase() throws {
        // Without root an orphan is ended by whichever case ends next: one case at a time.
        let outcome = try Self.run(["escapee", "orphan"], geteuid() == 0 ? [] : ["-j", "1"])
        #expect(outcome.status == .exited(0), "\(outcome.output)")
        // The daemon left its process group with setsid: only the case's cgroup (root) or the
        // subreaper finds it, and it is ended when its case ends, not at the end of the run.
        #expect(outcome.result("escapee", "qemu")?["detail"] as? String == "asmrun ended 1 process the program left running")
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
        defer { Files.removeTree(target) }
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
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

    /// A warm case runs the cache's entry where it is: the cache folder is in every case's view,
    /// and read-only there like the rest of the host.
    @Test(.enabled(if: geteuid() == 0, "isolation needs root; without it asmrun notes that it is off"))
    func casesCannotWriteTheCacheEntriesTheyRun() throws {
        let work = try Fixture.temporaryDirectory()
        defer { Files.removeTree(work) }
        let cache = work + "/cache"
        _ = try Fixture.asmrun([Fixture.packageRoot + "/asm/hello.asm", "--cache-dir", cache])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/objects")
        #expect(entries.count == 1)
        let entry = cache + "/objects/" + (entries.first ?? "")
        let before = try Files.read(entry)
        for file in ["writes_files.asm", "sys.inc"] {
            try FileManager.default.copyItem(atPath: Self.hostile + "/" + file, toPath: work + "/" + file)
        }
        try Fixture.write(
            "[case default]\nargs: \(entry)\nstdout:\n| cwd: ok\n| outside: blocked\nstatus: exit 0\n", to: work + "/writes_files.expect")
        // The second run is warm: writes_files itself runs from its entry.
        for round in 1...2 {
            let result = try Fixture.asmrun(["test", work + "/writes_files.asm", "--runner", Self.runners, "--cache-dir", cache])
            #expect(result.status == .exited(0), "round \(round): \(result.stdout)\(result.stderr)")
        }
        #expect(try Files.read(entry) == before, "the entry a case tried to truncate is intact")
    }

    @Test func interruptEndsEverythingAndStillWritesReports() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        for index in 0..<4 {
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/exit_code.asm", toPath: suite + "/p\(index).asm")
            try Fixture.write("[case default]\nstatus: exit 42\n", to: suite + "/p\(index).expect")
        }
        let sandbox = suite + "/tmp"
        try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
        // Cases see /tmp and /dev/shm as fresh, empty folders: the FIFO lives where they can reach it.
        let visible = try Fixture.visibleDirectory()
        defer { Files.removeTree(visible) }
        let ready = try Readiness(in: visible)
        // A runner that says it started, then outlives any patience: only the interrupt ends it.
        let runner = "sh -c 'echo $$ > \(ready.path); exec sleep 60'"
        var environment = Fixture.environment
        environment["TMPDIR"] = sandbox
        let process = try Self.start(
            [Fixture.binary, "test", suite, "--runner", runner, "-j", "2", "--timeout", "60", "--json", suite + "/r.json", "--no-cache"],
            environment)
        // Cases start only after asmrun's handler is installed, so the interrupt cannot be lost.
        let started = ready.lines(2, within: 60).compactMap { pid_t($0) }
        #expect(started.count == 2, "two cases reported running")
        let interrupted = monotonicSeconds()
        kill(process.processIdentifier, SIGINT)
        #expect(Self.exitStatus(process) == .exited(130))
        #expect(monotonicSeconds() - interrupted < 20, "ended at once, not after the cases' own 60 s limit")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        #expect(json["complete"] as? Bool == false)
        // The pids the cases wrote are their own namespace's: they are found by their TMPDIR.
        #expect(Self.processes(under: sandbox).isEmpty, "the running cases were ended")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox).isEmpty, "scratch removed")
    }

    @Test func concurrentRunsShareTheCacheAndExpectationsSafely() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        for name in ["hello", "echo", "factorial", "args", "fizzbuzz"] {
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).asm", toPath: suite + "/\(name).asm")
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).expect", toPath: suite + "/\(name).expect")
        }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/lib", toPath: suite + "/lib")
        let before = try Self.snapshot(suite)
        let cache = suite + "-cache"
        defer { Files.removeTree(cache) }
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
