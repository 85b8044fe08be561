import Foundation
import Glibc
import Processes
import Testing

/// The attacks of `Tests/Hostile/attack_*.asm`, each aimed at something outside its case (a
/// folder outside every case, a listening Unix socket in /tmp, a SysV message queue and a process
/// of the same user, asmrun itself, a neighbour case), run as root and as `nobody`, natively and
/// under qemu. Whether the kernel allows the namespaces is asked of unshare(1), never of asmrun.
/// Serialized: both users' runs aim at the one message queue key of this process.
@Suite(.serialized, .tags(.integration), .needsTools)
struct SandboxTests {
    /// program: the contained output of each case (`args` with the fixtures filled in).
    static let attacks: [(program: String, cases: [(name: String, args: String, stdout: String)])] = [
        ("attack_remount", [("default", "{outside}/remount", "remount: refused\noutside: blocked\n")]),
        ("attack_setns", [("default", "{outside}/setns", "setns mnt: refused\nsetns net: refused\noutside: blocked\n")]),
        ("attack_cgroup", [("default", "", "cgroup: refused\n")]),
        ("attack_daemon", [("default", "", "")]),
        ("attack_ptrace", [("default", "", "ptrace: refused\n")]),
        ("attack_msgqueue", [("default", "{queue}", "queue: untouched\n")]),
        ("attack_caps", [("default", "", "hostname: refused\nchown: refused\nsecurebits: locked\nno_new_privs: set\n")]),
        ("attack_memory", [("default", "", "maps: refused\nmem: refused\n")]),
        ("attack_x32", [("default", "", "x32: refused\n")]),
        ("attack_forks", [("default", "", "forks: limited\n")]),
        ("attack_socket", [("default", "{socket}", "socket: unreachable\n")]),
        ("attack_kill_parent", [("default", "", "")]),
        ("attack_kill_other", [("default", "{victim}", "kill: refused\n")]),
        ("attack_tty", [("default", "", "tty: none\ntiocsti: refused\n")]),
        // A file of root's, mode 0600: as root too, cases run as nobody.
        ("attack_private", [("default", "{private}", "private: refused\n")]),
        // Its PID 1 shares asmrun's memory: its command line is asmrun's.
        ("attack_proc_one", [("default", "--runner", "cmdline: hidden\nenviron: hidden\n")]),
        // One case after the other in one warden: what the first makes is gone for the second.
        (
            "attack_leftovers",
            [
                ("plant", "plant {queue}", "ipc: planted\nfile: [..]\n"),
                ("look", "look {queue}", "msg: gone\nsem: gone\nshm: gone\nmq: gone\nfile: gone\n"),
            ]
        ),
        // After attack_remount in the same run, at -j1: an innocent case inherits no remount.
        ("writes_files", [("default", "{outside}/innocent", "cwd: ok\noutside: blocked\n")]),
    ]
    /// A case sees no folder but its own: not its neighbour's, listed or guessed.
    static let neighbours = [("attacker", "attacker", "attacker: no neighbour\n"), ("victim", "victim", "victim: intact\n")]
    /// "AS" and the pid: `make stress`'s battery (a key of its own) may run beside these tests.
    static let queueKey = key_t(0x4153_0000 | (getpid() & 0xFFFF))

    @Test(.needsIsolatingRoot)
    func everyAttackIsContainedAsRoot() throws {
        try expectContained(uid: 0)
    }

    /// Where no warden can be started (ASMRUN_WARDENS=0 does as such a host would), each case
    /// gets an init and namespaces of its own: the same attacks are contained there.
    @Test(.needsIsolatingRoot)
    func everyAttackIsContainedWithAnInitPerCase() throws {
        try expectContained(uid: 0, environment: ["ASMRUN_WARDENS": "0"])
    }

    /// Where the kernel or an emulator (asmrun itself under qemu-user) refuses an init that shares
    /// asmrun's memory, the init gets a copy: the attacks on the init and on what it ends hold there
    /// too.
    @Test(.needsIsolatingRoot)
    func theAttacksOnTheInitAreContainedWithACopiedInit() throws {
        let fixtures = try AttackFixtures(uid: 0)
        defer { fixtures.close() }
        let names: Set = ["attack_kill_parent", "attack_daemon", "attack_forks", "attack_memory", "attack_caps", "writes_files"]
        let programs = Self.attacks.filter { names.contains($0.program) }
        let run = try fixtures.run(programs, jobs: "2", runners: HostileTests.runnersForTests, environment: ["ASMRUN_COPIED_INIT": "1"])
        #expect(run.status == .exited(0), "asmrun itself: \(run.output)")
        let results = run.json["results"] as? [[String: Any]] ?? []
        #expect(results.count == programs.count * HostileTests.runnersForTests.split(separator: ",").count)
        for result in results {
            #expect(result["status"] as? String == "pass", "\(result["program"] ?? "?") \(result["runner"] ?? "?"): \(run.output)")
        }
        #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
    }

    @Test(.enabled(if: nobodyMayIsolate, "needs root, setpriv, and a kernel that gives nobody user, PID and mount namespaces"))
    func everyAttackIsContainedAsNobody() throws {
        try expectContained(uid: 65534)
    }

    /// Runs the attacks as `uid`: the rest at -j1, then the two neighbours side by side (-j2),
    /// one runner at a time so that the two cases running together are the pair.
    private func expectContained(uid: uid_t, environment: [String: String] = [:]) throws {
        let fixtures = try AttackFixtures(uid: uid)
        defer { fixtures.close() }
        let runners = HostileTests.runnersForTests
        let neighbours = runners.split(separator: ",").map { ([("attack_neighbour", Self.neighbours)], "2", String($0)) }
        for (programs, jobs, runner) in [(Self.attacks, "1", runners)] + neighbours {
            let run = try fixtures.run(programs, jobs: jobs, runners: runner, environment: environment)
            #expect(run.status == .exited(0), "asmrun itself: \(run.output)")
            let results = run.json["results"] as? [[String: Any]] ?? []
            #expect(results.count == programs.reduce(0) { $0 + $1.1.count } * runner.split(separator: ",").count)
            for result in results {
                #expect(result["status"] as? String == "pass", "\(result["program"] ?? "?") \(result["runner"] ?? "?"): \(run.output)")
            }
            #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
            #expect(run.scratchLeft.isEmpty, "left in TMPDIR: \(run.scratchLeft)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.outside).isEmpty, "written outside the case")
        #expect(kill(fixtures.victim.processIdentifier, 0) == 0, "the victim process of the same user still runs")
        #expect(msgget(Self.queueKey, 0) >= 0, "the host's message queue still exists")
        let cores = (try? FileManager.default.contentsOfDirectory(atPath: HostileTests.hostile))?.filter { $0.contains("core") } ?? []
        #expect(cores.isEmpty, "core files: \(cores)")
    }

    /// `unshare` as nobody with every namespace a case gets: what the kernel allows, independently of asmrun.
    static let nobodyMayIsolate: Bool = {
        guard geteuid() == 0, Fixture.locator.find("setpriv") != nil else { return false }
        let probe = try? PosixLauncher(path: "/usr/bin:/bin").run(
            Command(
                "setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "unshare", "--user", "--pid", "--fork", "--mount", "--ipc", "--uts",
                    "--net", "true",
                ]),
            options: LaunchOptions())
        return probe?.termination == .exited(0)
    }()
}
