import CAsmRunSpawn
import Glibc
import Processes
import Support

/// What a case can read of other processes in /proc: their environments (`environ`, closed to
/// processes of another user and to cases without capabilities) and command lines (`cmdline`,
/// open to everyone unless /proc hides the process). A case with a /proc of its own PID namespace
/// sees none; without one, root's cases are held off by the host's `hidepid`, and a user's cases
/// see every process of that user: only asmrun's own entries are closed, by making it not
/// dumpable while cases run.
package struct ProcView: Sendable, Equatable {
    /// Cases get a /proc of their own PID namespace.
    var privateProc: Bool
    /// asmrun runs as root (its cases without capabilities, as nobody where they can).
    var root: Bool
    /// The host /proc's `hidepid` (0: every process is listed; 1: folders closed; 2, 4: hidden).
    var hidepid: Int

    /// Other processes' environments and command lines are out of the cases' reach.
    var protects: Bool { privateProc || (root && hidepid >= 1) }

    /// The `proc` layer for `asmrun doctor` and the run's notes.
    var layer: ContainmentLayer {
        if privateProc {
            return .on("proc", "a /proc of the case's own PID namespace (hidepid=2): no other process is in sight")
        }
        if protects {
            return .on(
                "proc",
                "the host's /proc has hidepid=\(hidepid) and cases have no capabilities: other processes' "
                    + "environments and command lines are closed to them")
        }
        if root {
            return .off(
                "proc",
                "cases read the host's /proc: every process's command line (asmrun's `--reference DIR` among them), "
                    + "not their environments; mount /proc with hidepid=2 or allow PID namespaces")
        }
        return .off(
            "proc",
            "cases read the host's /proc as you: the environment and command line of every process of yours "
                + "(asmrun's own are closed: it is not dumpable while cases run); " + Self.enable)
    }

    /// What lets cases have a /proc of their own.
    static let enable =
        "allow unprivileged user namespaces (`sysctl kernel.apparmor_restrict_unprivileged_userns=0` on Ubuntu 24.04; "
        + "in Docker a seccomp profile that allows `unshare` and `clone` of namespaces) or run as root"

    /// The refusal of untrusted code where cases could read other processes' environments and
    /// command lines, and what to do; `nil` where they cannot.
    package var untrustedRefusal: (problem: String, fix: String)? {
        guard !protects else { return nil }
        let what = root ? "every process's command line" : "the environment and command line of every process of yours"
        return (
            "untrusted code refused: its cases would read \(what) in /proc (a grader's `--reference DIR`, a CI token): "
                + "they get no /proc of their own here",
            (root ? "mount /proc with hidepid=2 or allow PID namespaces" : Self.enable) + ", or accept that with `--no-isolation`"
        )
    }

    /// `hidepid` of the /proc mounted at `/proc` (`/proc/self/mountinfo`'s super options:
    /// `hidepid=2` or, since Linux 5.8, `hidepid=invisible`).
    static func hostHidepid(mountinfo: String? = try? String(decoding: Files.read("/proc/self/mountinfo"), as: UTF8.self)) -> Int {
        for line in (mountinfo ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[4] == "/proc", let dash = fields.firstIndex(of: "-"), dash + 3 < fields.count,
                fields[dash + 1] == "proc"
            else { continue }
            for option in fields[dash + 3].split(separator: ",") where option.hasPrefix("hidepid=") {
                switch option.dropFirst("hidepid=".count) {
                case "1", "noaccess": return 1
                case "2", "invisible": return 2
                case "4", "ptraceable": return 4
                default: return 0
                }
            }
            return 0
        }
        return 0
    }
}

/// Makes asmrun not dumpable while a run's cases could read its /proc entries, and gives the
/// setting back.
enum Dumpable {
    /// The setting before, to give back; `nil` when nothing was changed.
    static func close() -> Int32? {
        let before = asmrun_set_dumpable(0)
        return before > 0 ? before : nil
    }

    static func restore(_ before: Int32?) {
        if let before { _ = asmrun_set_dumpable(before) }
    }
}
