import Foundation
import Glibc
import Processes
import Support
import Synchronization
import Testing

@testable import Sandbox

/// What an asmrun killed with SIGKILL leaves (scratch folders, a case still running, its pids
/// cgroup, a half-written `.expect`) is removed by the next run, and nothing of a live run is.
@Suite(.tags(.integration), .needsTools)
struct DebrisTests {

    /// Case processes still running from scratch folders under `sandbox` (every case carries
    /// `TMPDIR=<its case folder>`; the cases' pids are their own PID namespaces').
    private static func caseProcesses(under sandbox: String) -> [pid_t] {
        let me = getpid()
        return ((try? Files.list("/proc")) ?? []).compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != me, let environ = try? Files.read("/proc/\(name)/environ"),
                ([0] + environ).firstRange(of: [0] + Array("TMPDIR=\(sandbox)/".utf8)) != nil,
                let stat = try? Files.read("/proc/\(name)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                stat[(close + 2)...].first != UInt8(ascii: "Z")
            else { return nil }
            return pid
        }
    }

    /// Cgroup trees named after `pid` (root only; empty elsewhere).
    private func cgroups(of pid: pid_t) -> [String] {
        ["/sys/fs/cgroup", "/sys/fs/cgroup/pids"].flatMap { parent in
            ((try? Files.list(parent)) ?? []).filter { $0.hasPrefix(CgroupTree.ownedPrefix + "\(pid)-") }.map { parent + "/" + $0 }
        }
    }

    /// A new cgroup, `debris-PID-N`, with the pids controller for its children, in whichever
    /// hierarchy runs use (cgroup v2 or v1's pids); its name relative to the hierarchy's root.
    private static func privateCgroup() -> String? {
        let name = "debris-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0 {
            guard mkdir("/sys/fs/cgroup/" + name, 0o755) == 0 else { return nil }
            let control = "/sys/fs/cgroup/\(name)/cgroup.subtree_control"
            let fd = open(control, O_WRONLY | O_CLOEXEC)
            let written = fd >= 0 && write(fd, "+pids", 5) == 5
            if fd >= 0 { close(fd) }
            guard written else {
                rmdir("/sys/fs/cgroup/" + name)
                return nil
            }
            return name
        }
        return mkdir("/sys/fs/cgroup/pids/" + name, 0o755) == 0 ? name : nil
    }

    private static func removeCgroup(_ name: String) {
        for parent in ["/sys/fs/cgroup/", "/sys/fs/cgroup/pids/"] { rmdir(parent + name) }
    }

    /// Whether runs give their cases pids cgroups here (root, with a writable pids controller).
    private static let casesGetCgroups = geteuid() == 0 && CgroupTree.create().map { $0.remove() } != nil

    /// The case cgroup folder named by a line of `/proc/self/cgroup` (`N:pids:/path`, or
    /// `0::/path` on cgroup v2).
    private static func cgroupFolder(_ line: String) -> String? {
        let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[2].contains("/asmrun-") else { return nil }
        return (fields[1] == "pids" ? "/sys/fs/cgroup/pids" : "/sys/fs/cgroup") + fields[2]
    }

    @Test func theNextRunRemovesWhatAKilledRunLeft() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        let sandbox = suite + "/tmp"
        #expect(mkdir(sandbox, 0o755) == 0)
        try Fixture.write(Fixture.corpusHello, to: suite + "/hello.asm")
        try Fixture.write("[case default]\nstatus: exit 9\n", to: suite + "/hello.expect")
        // A rewrite that died half-way, and one a live writer still holds.
        try Fixture.write("[case def", to: suite + "/.hello.expect.asmrun-Dead01")
        try Fixture.write("[case def", to: suite + "/.hello.expect.asmrun-Live01")
        let live = try Fixture.holdAsLiveWriter(suite + "/.hello.expect.asmrun-Live01")
        defer { close(live) }
        // Cases see /tmp and /dev/shm as fresh, empty folders: the runner and its FIFO live where they can reach them.
        let visible = try Fixture.visibleDirectory()
        defer { Files.removeTree(visible) }
        let ready = try Readiness(in: visible)
        let runner = try ready.runner("echo $$ > \(ready.path)\nexec sleep 600\n")
        // Without isolation (or on a host without PID namespaces) a case outlives a killed asmrun;
        // with it, the case's init dies with asmrun and takes its namespace along.
        let first = try BackgroundAsmrun(
            ["test", suite, "--update", "--runner", runner, "--no-cache", "--no-isolation"], environment: ["TMPDIR": sandbox])
        let started = ready.lines(1, within: 60)
        #expect(started.count == 1, "the case is running")
        let orphan = try #require(started.first.flatMap { pid_t($0) }, "the case's pid")
        defer { kill(orphan, SIGKILL) }
        kill(first.pid, SIGKILL)
        #expect(first.wait().termination == .signaled(SIGKILL))
        #expect(try !Files.list(sandbox).isEmpty, "the killed run left its scratch folders")
        // Its case outlives it; any asmrun started from here on may end it (and remove its
        // cgroup): this test's second run, or one beside it (`make stress`). Only the end is
        // asserted.

        let second = try BackgroundAsmrun(["test", suite, "--runner", "qemu", "--no-cache"], environment: ["TMPDIR": sandbox])
        #expect(second.wait().termination == .exited(1), "the stale expectation still fails")
        #expect(try Files.list(sandbox).isEmpty, "scratch of the killed run removed, and the second run's own")
        #expect(Self.caseProcesses(under: sandbox).isEmpty, "its case was ended")
        // Its cgroups exist only where cases get them (root, a writable pids controller): the
        // next test asserts their removal there and is reported as skipped elsewhere.
        #expect(try Files.list(suite).filter { $0.contains(".asmrun-") } == [".hello.expect.asmrun-Live01"])
        #expect(try String(contentsOfFile: suite + "/hello.expect", encoding: .utf8) == "[case default]\nstatus: exit 9\n")
    }

    /// Three runs killed while a case runs: one isolated, one whose case outlives it
    /// (`--no-isolation`), one made in a pid namespace of its own (`unshare -p`, as in a
    /// container), where its pid means nothing to the next run. The next run removes their
    /// trees, ends the case left and removes their scratch.
    @Test(.enabled(if: Self.casesGetCgroups, "cases get pids cgroups only as root with a writable pids controller"))
    func theNextRunRemovesTheCgroupsOfKilledRunsWhicheverNamespaceMadeThem() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        let sandbox = suite + "/tmp"
        #expect(mkdir(sandbox, 0o755) == 0)
        try Fixture.write(Fixture.corpusHello, to: suite + "/hello.asm")
        let visible = try Fixture.visibleDirectory()
        defer { Files.removeTree(visible) }
        let ready = try Readiness(in: visible)
        // Says which cgroup the case is in, then waits to be killed.
        let said = "{ grep :pids: /proc/self/cgroup || grep ^0:: /proc/self/cgroup; } | head -n 1 > \(ready.path)"
        let runner = try ready.runner("\(said)\nexec sleep 600\n")
        let command = ["test", suite, "--update", "--runner", runner, "--no-cache"]
        // The runs make their trees in a cgroup of this test's: every other run of the suites
        // beside it sweeps the hierarchy's root, and would end the case left here before the
        // run under test does.
        let group = try #require(Self.privateCgroup(), "a cgroup for this test's runs")
        defer { Self.removeCgroup(group) }
        let environment = ["TMPDIR": sandbox, "ASMRUN_CGROUP_PARENT": group]
        var trees: [String] = []
        for (extra, wrapper) in [([], []), (["--no-isolation"], []), ([], ["/usr/bin/unshare", "-p", "-f", "--mount-proc"])] {
            let run = try BackgroundAsmrun(command + extra, environment: environment, wrapper: wrapper)
            let line = ready.lines(1, within: 60)
            let folder = try #require(line.first.flatMap(Self.cgroupFolder), "the case runs in a case cgroup: \(line)")
            trees.append((folder as NSString).deletingLastPathComponent)
            // Under unshare, asmrun is the wrapper's child (PID 1 of the namespace).
            let children = "/proc/\(run.pid)/task/\(run.pid)/children"
            let asmrun = wrapper.isEmpty ? run.pid : pid_t(try String(contentsOfFile: children, encoding: .utf8).trimmingWhitespace())
            kill(try #require(asmrun), SIGKILL)
            // The wrapper reports its child's death in its own way.
            let ended = run.wait().termination
            #expect(!wrapper.isEmpty || ended == .signaled(SIGKILL))
            #expect(access(folder, F_OK) == 0, "the killed run left its case cgroup")
        }
        let survivor = try #require(Self.caseProcesses(under: sandbox).first, "the case of the run without isolation outlived it")
        defer { kill(survivor, SIGKILL) }

        let next = try BackgroundAsmrun(["test", suite, "--runner", "qemu", "--no-cache"], environment: environment)
        _ = next.wait()
        #expect(trees.filter { access($0, F_OK) == 0 } == [], "every tree of the killed runs removed")
        // Not `Readiness.isGone`: an orphan may be this test process's zombie (tests beside it make it a subreaper).
        #expect(Self.caseProcesses(under: sandbox).isEmpty, "the case that outlived its run was ended")
        #expect(try Files.list(sandbox).isEmpty, "their scratch removed")
    }

    @Test func aLiveRunsScratchIsNeverSwept() throws {
        let sandbox = try Fixture.temporaryDirectory()
        defer { Files.removeTree(sandbox) }
        let environment = ["TMPDIR": sandbox]
        let live = try TemporaryDirectory(prefix: "test", environment: environment, claimed: true)
        defer { live.remove() }
        let unclaimed = try TemporaryDirectory(prefix: "other", environment: environment)
        defer { unclaimed.remove() }
        #expect(mkdir(sandbox + "/asmrun-dead-1-abcdef", 0o755) == 0)
        try Fixture.write("1\n", to: sandbox + "/asmrun-dead-1-abcdef/" + TemporaryDirectory.ownerName)
        #expect(AbandonedScratch.sweep(environment: environment) == 1)
        #expect(
            try Files.list(sandbox).sorted()
                == [(live.path as NSString).lastPathComponent, (unclaimed.path as NSString).lastPathComponent].sorted())
        #expect(Files.exists(live.path + "/" + TemporaryDirectory.ownerName))
    }

    @Test func aSweepRacingFolderCreationNeverTakesALiveOne() throws {
        let sandbox = try Fixture.temporaryDirectory()
        defer { Files.removeTree(sandbox) }
        let environment = ["TMPDIR": sandbox]
        let stop = Atomic<Bool>(false)
        let sweeper = Thread {
            while !stop.load(ordering: .relaxed) { AbandonedScratch.sweep(environment: environment) }
        }
        sweeper.start()
        var lost = 0
        for _ in 0..<3000 {
            let folder = try TemporaryDirectory(prefix: "race", environment: environment, claimed: true)
            if !Files.exists(folder.path + "/" + TemporaryDirectory.ownerName) { lost += 1 }
            folder.remove()
        }
        stop.store(true, ordering: .relaxed)
        #expect(lost == 0, "\(lost) live folders were swept")
    }
}
