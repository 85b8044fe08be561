import Foundation
import Glibc
import Support
import Testing

@testable import Processes

/// The process layer against real processes (`/bin/sh`, `cat`, `head`: always present).
@Suite struct LauncherTests {
    private let launcher = PosixLauncher(path: "/usr/bin:/bin")

    private func sh(_ script: String, _ configure: (inout LaunchOptions) -> Void = { _ in }) throws -> ProcessResult {
        var options = LaunchOptions()
        configure(&options)
        return try launcher.run(Command("sh", ["-c", script]), options: options)
    }

    @Test func capturesBothStreamsAndTheExitCode() throws {
        let result = try sh("echo out; echo err >&2; exit 3")
        #expect(result.termination == .exited(3))
        #expect(result.stdout == Array("out\n".utf8))
        #expect(result.stderr == Array("err\n".utf8))
    }

    /// A tool's two streams go to one file, not to pipes (whose closing at its exit woke the
    /// supervisor twice), and come back in the order written, cut at the capture limit.
    @Test func outputToFileKeepsBothStreamsInOrderInOneFile() throws {
        let result = try sh("echo one; echo two >&2; echo three; readlink /proc/self/fd/1 /proc/self/fd/2; exit 4") {
            $0.outputToFile = true
        }
        #expect(result.termination == .exited(4))
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.prefix(3) == ["one", "two", "three"])
        #expect(lines.count == 5 && lines[3] == lines[4] && lines[3].contains("memfd:asmrun-output"), "\(lines)")
        #expect(result.stderr.isEmpty && !result.outputLimitExceeded)
        let long = try sh("head -c 5000 /dev/zero; head -c 5000 /dev/zero >&2") {
            $0.outputToFile = true
            $0.stdout = .capture(limit: 6000)
        }
        #expect(result.termination == .exited(4) && long.termination == .exited(0))
        #expect(long.stdout.count == 6000 && long.outputLimitExceeded)
    }

    @Test func reportsDeathBySignalWithDefaultDispositions() throws {
        #expect(try sh("kill -SEGV $$").termination == .signaled(SIGSEGV))
        // asmrun ignores SIGPIPE itself; the child must get the default action back.
        #expect(try sh("kill -PIPE $$").termination == .signaled(SIGPIPE))
        #expect(try sh("ulimit -c").stdout == Array("0\n".utf8), "core dumps are off in every child")
    }

    @Test func emptyStdinIsEndOfFileAtOnce() throws {
        let result = try launcher.run(Command("cat"), options: LaunchOptions())
        #expect(result.termination == .exited(0))
        #expect(result.stdout.isEmpty)
    }

    @Test func feedsLargeStdinWhileDrainingStdout() throws {
        let input = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var options = LaunchOptions()
        options.stdin = .bytes(input)
        let result = try launcher.run(Command("cat"), options: options)
        #expect(result.stdout == input)
    }

    /// Input comes as a file (as with `< NAME.in`), one that cannot be changed: nothing feeds a
    /// pipe while the child runs.
    @Test func stdinIsAFileTheChildCannotWrite() throws {
        let result = try sh("test -f /dev/stdin && ! (printf x >&0) 2>/dev/null && cat") { $0.stdin = .bytes(Array("in\n".utf8)) }
        #expect(result.termination == .exited(0))
        #expect(result.stdout == Array("in\n".utf8))
    }

    /// With pipes (a program) the supervisor's poll loop keeps the deadline; with a file (a
    /// tool) the supervisor waits in `waitid` and `Deadlines` keeps it.
    /// The deadline leaves the shell time to start on a loaded machine (it once came before the
    /// shell printed its pid); the sleeps outlast it by far.
    @Test(arguments: [false, true]) func timeoutEndsTheWholeProcessGroup(toFile: Bool) throws {
        let start = monotonicSeconds()
        let result = try sh("echo $$; sleep 60 & sleep 60; wait") {
            $0.timeout = 3
            $0.outputToFile = toFile
        }
        #expect(result.termination == .timedOut)
        #expect(monotonicSeconds() - start < 30)
        let printed = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let group = try #require(pid_t(printed), "the shell printed its pid before the deadline: \(printed)")
        #expect(Fixture.liveProcesses(inGroup: group).isEmpty, "the background sleep must be gone")
    }

    @Test(arguments: [false, true]) func termIgnoringChildIsKilledAfterTheGrace(toFile: Bool) throws {
        let start = monotonicSeconds()
        let result = try sh("trap '' TERM; while :; do :; done") {
            $0.timeout = 0.2
            $0.killGrace = 0.2
            $0.outputToFile = toFile
        }
        #expect(result.termination == .timedOut)
        #expect(monotonicSeconds() - start < 5)
    }

    /// Tools one after the other, each with a deadline that never comes: each one's exit is
    /// its own, and one that runs past its deadline is the only one timed out.
    @Test func toolsWaitedForInWaitidKeepTheirOwnStatusAndDeadline() throws {
        for code in 0..<20 {
            let result = try sh("exit \(code)") {
                $0.timeout = 60
                $0.outputToFile = true
            }
            #expect(result.termination == .exited(Int32(code)))
        }
        let late = try sh("sleep 30") {
            $0.timeout = 0.2
            $0.outputToFile = true
        }
        let quick = try sh("exit 7") {
            $0.timeout = 0.2
            $0.outputToFile = true
        }
        #expect(late.termination == .timedOut && quick.termination == .exited(7))
    }

    @Test func outputLimitStopsARunawayWriter() throws {
        let result = try sh("head -c 50000000 /dev/zero") { $0.stdout = .capture(limit: 1 << 20) }
        #expect(result.outputLimitExceeded)
        #expect(result.stdout.count == 1 << 20)
    }

    /// The classic deadlock: children that fill both pipes while the parent reads only one.
    @Test func concurrentChildrenWritingMoreThanAPipeToBothStreams() async throws {
        let script = "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2; head -c 100000 /dev/zero"
        let launcher = self.launcher
        try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        Thread.detachNewThread {
                            var options = LaunchOptions()
                            options.timeout = 60
                            continuation.resume(with: Result { try launcher.run(Command("sh", ["-c", script]), options: options) })
                        }
                    }
                }
            }
            for try await result in group {
                #expect(result.termination == .exited(0))
                #expect(result.stdout.count == 400_000)
                #expect(result.stderr.count == 200_000)
            }
        }
    }

    @Test func noDescriptorLeaksAcrossManyRuns() throws {
        func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
        _ = try sh("true")
        let before = openDescriptors()
        for index in 0..<1000 {
            var options = LaunchOptions()
            options.stdin = .bytes(Array("x\(index)".utf8))
            _ = try launcher.run(Command("cat"), options: options)
        }
        _ = try? launcher.run(Command("no-such-program-asmrun"), options: LaunchOptions())
        // Other tests run in parallel and hold descriptors of their own children (223 more than
        // at the start were seen once, in a clean clone's `make test`); a leak of one descriptor
        // per run would show here as a thousand.
        #expect(openDescriptors() <= before + 400)
    }

    @Test func missingExecutableIsAnError() {
        #expect(throws: LaunchError.notFound("no-such-program-asmrun")) {
            try launcher.run(Command("no-such-program-asmrun"), options: LaunchOptions())
        }
    }

    /// Case namespaces copy the run's private mount view; without one they would copy asmrun's
    /// own mount namespace, whose mount events a shared root passes to the host.
    @Test func caseNamespacesWithoutTheRunsViewAreRefused() {
        var options = LaunchOptions()
        options.confinement = Confinement(caseNamespaces: true)
        #expect(throws: LaunchError.spawnFailed("/bin/true: making its PID, IPC, UTS and mount namespaces failed", errno: EINVAL)) {
            try launcher.run(Command("/bin/true"), options: options)
        }
    }

    @Test func argv0AndWorkingDirectoryAndEnvironment() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let shell = try launcher.run(
            Command("/bin/sh", ["-c", "echo $0 $(pwd)"], workingDirectory: directory, argv0: "custom0"), options: LaunchOptions())
        #expect(shell.stdout == Array("custom0 \(directory)\n".utf8))
        let env = try launcher.run(Command("/usr/bin/env", environment: ["ONLY": "me", "ALSO": "x=y"]), options: LaunchOptions())
        #expect(env.stdout == Array("ALSO=x=y\nONLY=me\n".utf8), "exactly the environment given, nothing inherited")
    }
}
