import CAsmRunSpawn
import Foundation
import Glibc
import Synchronization

/// Keeps test cases from hurting the run or the machine, with every layer the host allows:
/// - a process group per case (always), ended whole when the case ends;
/// - a pids cgroup per case (root, cgroup v1 or v2): bounds process counts, which root's
///   RLIMIT_NPROC does not, and ends escaped daemons (`setsid`) too;
/// - otherwise RLIMIT_NPROC, and asmrun as child subreaper ending orphans after each case;
/// - namespaces (as root, or inside an unprivileged user namespace where the kernel allows one):
///   no network, and a file system that is read-only except the scratch folder.
/// A layer that is not available is reported once in `notes`, never as a failure.
public final class Containment: Sendable {
    /// Namespaces every case enters, when available.
    public let namespaces: Namespaces?
    /// One line per unavailable layer, saying why.
    public let notes: [String]
    /// One line per active layer.
    public let active: [String]
    private let cgroups: CgroupTree?
    private let counter = Atomic<Int>(0)
    /// `TMPDIR=<writable>/`: every case process carries it, which is how orphans are recognised.
    private let marker: [UInt8]
    /// Orphans this containment killed and still has to reap.
    private let killed = Mutex<Set<pid_t>>([])
    /// RLIMIT_NPROC for cases when no cgroup bounds them (non-root: counts all the user's processes).
    let processLimit: Int?

    /// Processes one case may have at once (pids.max, or added to the user's count for RLIMIT_NPROC).
    public static let maxProcesses = 256

    /// Sets up what this host allows; `writable` is the only folder cases may write to.
    public init(writable: String, isolate: Bool = true) {
        marker = Array("TMPDIR=\(writable)/".utf8)
        var notes: [String] = []
        var active = ["process group per case, ended with the case"]
        let root = geteuid() == 0
        if root, let tree = CgroupTree.create() {
            cgroups = tree
            processLimit = nil
            active.append("pids cgroup per case (\(tree.kind), pids.max \(Self.maxProcesses)) ending every process it holds")
        } else {
            cgroups = nil
            _ = asmrun_become_subreaper()
            processLimit = Self.userProcessCount() + Self.maxProcesses
            notes.append(
                root
                    ? "no writable pids cgroup: process counts are not bounded for root (RLIMIT_NPROC does not apply)"
                    : "not root: process counts bounded by RLIMIT_NPROC; escaped daemons ended through the subreaper")
        }
        var namespaces: Namespaces?
        if isolate {
            var user: Int32 = -1
            var net: Int32 = -1
            var mnt: Int32 = -1
            var step: UnsafePointer<CChar>?
            let code = writable.withCString { asmrun_make_namespaces($0, root ? 0 : 1, &user, &net, &mnt, &step) }
            if net >= 0 || mnt >= 0 {
                let candidate = Namespaces(userNamespace: user, networkNamespace: net, mountNamespace: mnt)
                // Creating namespaces can succeed where entering them fails (a security module):
                // try once with a trivial child, so cases never fail for it.
                if let problem = Self.tryEntering(candidate) {
                    for fd in [user, net, mnt] where fd >= 0 { Glibc.close(fd) }
                    (user, net, mnt) = (-1, -1, -1)
                    notes.append("isolation unavailable: entering the namespaces failed (\(problem))")
                } else {
                    namespaces = candidate
                }
            }
            let how = root ? "" : ", inside an unprivileged user namespace"
            if net >= 0 { active.append("no network (a network namespace without interfaces\(how))") }
            if mnt >= 0 { active.append("read-only file system except the case folders (a mount namespace\(how))") }
            if code != 0 {
                let what = step.map { String(cString: $0) } ?? "namespaces"
                let reason = "\(what) failed (\(String(cString: strerror(code))))"
                notes.append(
                    namespaces == nil
                        ? "isolation unavailable: \(reason); cases run with the network and file system of \(root ? "root" : "the user")"
                        : "isolation incomplete: \(reason)")
            }
        }
        self.namespaces = namespaces
        self.notes = notes
        self.active = active
    }

    /// Runs `true` inside the namespaces; `nil` when that works, else what went wrong.
    private static func tryEntering(_ namespaces: Namespaces) -> String? {
        var options = LaunchOptions()
        options.isolation = namespaces
        options.timeout = 10
        do {
            let result = try PosixLauncher(path: "/usr/bin:/bin").run(Command("true"), options: options)
            return result.termination == .exited(0) ? nil : "true ended with \(result.termination.summary)"
        } catch {
            return "\(error)"
        }
    }

    /// Starts a case: its cgroup (if any) is created; pass `procsFile` to the launcher.
    func beginCase() -> CaseScope {
        guard let cgroups else { return CaseScope(cgroup: nil) }
        let index = counter.add(1, ordering: .relaxed).newValue
        return CaseScope(cgroup: cgroups.makeCase(index, maxProcesses: Self.maxProcesses))
    }

    /// Ends whatever the case left running (escaped daemons included) and removes its cgroup.
    /// Returns how many processes had to be killed.
    @discardableResult
    func endCase(_ scope: CaseScope) -> Int {
        if let cgroup = scope.cgroup { return cgroups?.killAll(in: cgroup) ?? 0 }
        guard cgroups == nil else { return 0 }
        let count = endStrays(wait: false)
        // Reap what was killed before the next case starts: zombies still count for RLIMIT_NPROC.
        if count > 0 { endStrays(wait: true) }
        return count
    }

    /// Removes the cgroup tree and closes the namespace descriptors. With `reapingAll`, also
    /// collects orphans nothing identifies any more (a daemon's parent that exited by itself).
    public func close(reapingAll: Bool = false) {
        cgroups?.remove()
        if cgroups == nil { endStrays(wait: true) }
        if reapingAll {
            for stray in Self.strayChildren() where stray.zombie {
                var status: Int32 = 0
                _ = waitpid(stray.pid, &status, WNOHANG)
            }
        }
        if let namespaces {
            for fd in [namespaces.userNamespace, namespaces.networkNamespace, namespaces.mountNamespace] where fd >= 0 {
                Glibc.close(fd)
            }
        }
    }

    /// Children of asmrun that asmrun did not start: orphans of a case, handed to the subreaper
    /// (or children of whatever else shares this process, which are left alone).
    static func strayChildren() -> [(pid: pid_t, zombie: Bool, group: pid_t)] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[1]) == me, !ActiveChildren.shared.contains(pid) else { return nil }
            return (pid, fields[0] == "Z", pid_t(fields[2]) ?? 0)
        }
    }

    /// Kills the orphans of this containment's cases (recognised by a process group asmrun
    /// created, or by the case environment) and reaps them; never touches another child of this
    /// process. Runs with spawns
    /// held off, so a case child between its spawn and its registration is not mistaken for one.
    @discardableResult
    func endStrays(wait: Bool) -> Int {
        SpawnGate.shared.exclusive {
            var count = 0
            for round in 0..<(wait ? 1000 : 1) {
                var pending = false
                for stray in Self.strayChildren() {
                    let fromCase = ActiveChildren.shared.createdGroup(stray.group)
                    if stray.zombie {
                        if fromCase || killed.withLock({ $0.contains(stray.pid) }) {
                            var status: Int32 = 0
                            if waitpid(stray.pid, &status, WNOHANG) == stray.pid {
                                _ = killed.withLock { $0.remove(stray.pid) }
                            }
                        }
                    } else if fromCase || isCaseProcess(stray.pid) {
                        if round == 0 { count += 1 }
                        kill(stray.pid, SIGKILL)
                        _ = killed.withLock { $0.insert(stray.pid) }
                        pending = true
                    } else if killed.withLock({ $0.contains(stray.pid) }) {
                        pending = true
                    }
                }
                // Forget any that vanished without us (nothing left to reap).
                killed.withLock { $0 = $0.filter { kill($0, 0) == 0 || errno != ESRCH } }
                if !wait || (!pending && killed.withLock({ $0.isEmpty })) { break }
                usleep(1000)
            }
            return count
        }
    }

    private func isCaseProcess(_ pid: pid_t) -> Bool {
        guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return ([0] + [UInt8](environ)).firstRange(of: [0] + marker) != nil
    }

    private static func userProcessCount() -> Int {
        let uid = getuid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var count = 0
        for name in entries where Int(name) != nil {
            var info = stat()
            if stat("/proc/" + name, &info) == 0 && info.st_uid == uid { count += 1 }
        }
        return count
    }
}

/// A case's containment handle.
struct CaseScope: Sendable {
    /// The case's cgroup folder, when cgroups are in use.
    let cgroup: String?

    /// The `cgroup.procs` file the child joins.
    var procsFile: String? { cgroup.map { $0 + "/cgroup.procs" } }
}
