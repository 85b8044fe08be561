import CAsmRunSpawn
import Glibc
import Synchronization

/// Keeps test cases from hurting the run or the machine, with every layer the host allows:
/// - a process group per case (always), ended whole when the case ends;
/// - a pids cgroup per case (root, cgroup v1 or v2): bounds process counts, which root's
///   RLIMIT_NPROC does not, and ends escaped daemons (`setsid`) too;
/// - otherwise RLIMIT_NPROC, and asmrun as child subreaper ending orphans after each case;
/// - namespaces (as root, or inside an unprivileged user namespace where the kernel allows one):
///   no network, and a file system that is read-only except the scratch folder.
/// A layer that is not available is reported once in `notes`, never as a failure. One
/// containment belongs to one run; `close` undoes everything it set up.
package final class Containment: Sendable {
    /// Namespaces every case enters, when available.
    package let namespaces: Namespaces?
    /// One line per unavailable layer, saying why.
    package let notes: [String]
    /// One line per active layer.
    package let active: [String]
    /// RLIMIT_NPROC for cases when no cgroup bounds them (non-root: counts all the user's processes).
    package let processLimit: Int?
    private let cgroups: CgroupTree?
    private let strays: StrayReaper?
    private let leasedSubreaper: Bool
    private let counter = Atomic<Int>(0)

    /// Processes one case may have at once (pids.max, or added to the user's count for RLIMIT_NPROC).
    package static let maxProcesses = 256

    /// Sets up what this host allows; `writable` is the only folder cases may write to, and
    /// `launcher` is the one that will start the cases.
    package init(writable: String, isolate: Bool = true, launcher: any ProcessLaunching) {
        var notes: [String] = []
        var active = ["process group per case, ended with the case"]
        let root = geteuid() == 0
        if root, let tree = CgroupTree.create() {
            cgroups = tree
            strays = nil
            leasedSubreaper = false
            processLimit = nil
            active.append("pids cgroup per case (\(tree.kind), pids.max \(Self.maxProcesses)) ending every process it holds")
        } else {
            cgroups = nil
            strays = StrayReaper(children: launcher.children, writable: writable)
            leasedSubreaper = Subreaper.acquire()
            processLimit = Self.userProcessCount() + Self.maxProcesses
            notes.append(
                root
                    ? "no writable pids cgroup: process counts are not bounded for root (RLIMIT_NPROC does not apply)"
                    : "not root: process counts bounded by RLIMIT_NPROC; escaped daemons ended through the subreaper")
        }
        if isolate {
            let setup = NamespaceSetup(writable: writable, root: root, launcher: launcher)
            namespaces = setup.namespaces
            active += setup.active
            notes += setup.notes
        } else {
            namespaces = nil
        }
        self.notes = notes
        self.active = active
    }

    /// Starts a case: its cgroup (if any) is created; pass `procsFile` to the launcher.
    package func beginCase() -> CaseScope {
        guard let cgroups else { return CaseScope(cgroup: nil) }
        let index = counter.add(1, ordering: .relaxed).newValue
        return CaseScope(cgroup: cgroups.makeCase(index, maxProcesses: Self.maxProcesses))
    }

    /// Ends whatever the case left running (escaped daemons included) and removes its cgroup.
    /// Returns how many processes had to be killed.
    @discardableResult
    package func endCase(_ scope: CaseScope) -> Int {
        if let cgroup = scope.cgroup { return cgroups?.killAll(in: cgroup) ?? 0 }
        return strays?.endStrays() ?? 0
    }

    /// Removes the cgroup tree, ends the last orphans, gives the subreaper lease back and closes
    /// the namespace descriptors. With `reapingAll` (asmrun owns the process), also collects
    /// zombies nothing identifies any more.
    package func close(reapingAll: Bool = false) {
        cgroups?.remove()
        strays?.endStrays()
        if reapingAll { strays?.reapAllZombies() }
        if leasedSubreaper { Subreaper.release() }
        namespaces?.close()
    }

    private static func userProcessCount() -> Int {
        let uid = getuid()
        guard let directory = opendir("/proc") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil else { continue }
            var info = stat()
            if stat("/proc/" + name, &info) == 0 && info.st_uid == uid { count += 1 }
        }
        return count
    }
}

/// A case's containment handle.
package struct CaseScope: Sendable {
    /// The case's cgroup folder, when cgroups are in use.
    let cgroup: String?

    /// The `cgroup.procs` file the child joins.
    package var procsFile: String? { cgroup.map { $0 + "/cgroup.procs" } }
}
