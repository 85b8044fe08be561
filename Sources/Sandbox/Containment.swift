import CAsmRunSpawn
import Glibc
import Processes
import Synchronization

/// Keeps test cases from hurting the run, the machine or each other, with every layer the host
/// allows (`layers`, as `asmrun doctor` lists them):
/// - a process group per case (always), ended whole when the case ends;
/// - no controlling terminal (always): asmrun's is given up, /dev/tty is not in the view, and
///   the filter refuses TIOCSTI;
/// - PID, IPC, UTS and mount namespaces per worker thread, with a warden as PID 1 that runs the
///   worker's cases one after another and ends every process and IPC object a case left when its
///   program ends (`Warden`; per case, with an init of its own, where no warden starts); only the
///   worker's folder writable (as root, or inside an
///   unprivileged user namespace where the kernel allows one), a network namespace without
///   interfaces for the run;
/// - no capabilities, no_new_privs and a seccomp filter (`SeccompFilter`), as root too;
/// - a pids cgroup per case (root, cgroup v1 or v2): `pids.max` bounds process counts, which
///   root's RLIMIT_NPROC does not;
/// - otherwise RLIMIT_NPROC, and, without PID namespaces, asmrun as child subreaper ending
///   orphans after each case.
/// A layer that is not available is reported once in `notes`, never as a failure. One
/// containment belongs to one run; `close` undoes everything it set up.
package final class Containment: Sendable {
    /// Namespaces every case enters, when available.
    package let namespaces: Namespaces?
    /// Namespaces of each case's own, capabilities and the system call filter.
    package let confinement: Confinement
    /// pid, ipc, uts, net, mount, caps, seccomp and cgroup: active or why not.
    package let layers: [ContainmentLayer]
    /// One line per unavailable layer (grouped), saying why.
    package let notes: [String]
    /// What cases can read of other processes in /proc.
    package let proc: ProcView
    /// asmrun's dumpable setting before the run made it not dumpable.
    private let dumpable: Int32?
    /// RLIMIT_NPROC for cases when no cgroup bounds them (non-root: counts all the user's processes).
    package let processLimit: Int?
    let cgroups: CgroupTree?
    private let strays: StrayReaper?
    /// The folder the case folders are made in.
    let writable: String
    /// Each worker thread's warden (see `Warden`).
    let wardens = WardenTable()
    private let leasedSubreaper: Bool
    let counter = Atomic<Int>(0)
    /// The most a warden's cases may write into its folder: a tmpfs of this size (`--scratch-limit`).
    package let folderBytes: Int
    /// And of this many files and folders.
    package static let folderInodes = 16384

    /// Processes one case may have at once (pids.max, or added to the user's count for RLIMIT_NPROC).
    package static let maxProcesses = 256

    /// Why cases get no pids cgroup, and what bounds their processes instead.
    private static func uncounted(root: Bool, cgroupParent: String?, exact: Bool) -> String {
        guard root else {
            return "not root: process counts bounded by RLIMIT_NPROC"
                + (exact ? " (all of the user's processes count)" : "; escaped daemons ended through the subreaper")
        }
        let missing =
            cgroupParent.map {
                "ASMRUN_CGROUP_PARENT=\($0.displayEscaped) is no cgroup with a writable pids controller (name one below the "
                    + "hierarchy's root, such as `ci/asmrun`, or unset it)"
            } ?? "no writable pids cgroup"
        return missing + ": process counts are not bounded for root (RLIMIT_NPROC does not apply)"
    }

    /// Sets up what this host allows; `writable` holds the case folders, `visible` are folders
    /// cases must see even under /tmp, /run or /dev/shm (the build's private copies), and
    /// `launcher` is the one that will start the cases. `isolate: false` (`--no-isolation`)
    /// leaves out the namespaces, not the capabilities and the filter. `cgroupParent` is the
    /// cgroup the run's tree is made in (`ASMRUN_CGROUP_PARENT`; the hierarchy's root if `nil`).
    /// `hidden` folders (a grading run's reference) are covered by an empty tmpfs in cases' view.
    package init(
        writable: String, visible: [String] = [], hidden: [String] = [], isolate: Bool = true, folderBytes: Int = 256 << 20,
        cgroupParent: String? = nil, launcher: any ProcessLaunching
    ) {
        let root = geteuid() == 0
        self.writable = writable
        self.folderBytes = folderBytes
        // Cases of root's run as another user (`CaseIdentity`): they may pass through the
        // folder of their folders, not list it.
        if root { chmod(writable, 0o711) }
        let setup = NamespaceSetup(
            scratch: writable, visible: visible, hidden: hidden, root: root, isolate: isolate, launcher: launcher)
        namespaces = setup.namespaces
        confinement = setup.confinement
        var layers = setup.layers
        var notes: [String] = []
        if root, let tree = CgroupTree.create(in: cgroupParent) {
            cgroups = tree
            strays = nil
            leasedSubreaper = false
            processLimit = nil
            layers.append(
                .on("cgroup", "a pids cgroup per worker or case (\(tree.kind)): pids.max \(Self.maxProcesses) or its `limit processes`"))
        } else {
            cgroups = nil
            let exact = setup.confinement.caseNamespaces
            strays = exact ? nil : StrayReaper(children: launcher.children, writable: writable)
            leasedSubreaper = exact ? false : Subreaper.acquire()
            processLimit = Self.userProcessCount() + Self.maxProcesses
            let reason = Self.uncounted(root: root, cgroupParent: cgroupParent, exact: exact)
            layers.append(.off("cgroup", reason))
            notes.append(reason)
        }
        if isolate { notes += Self.notes(for: setup) }
        proc = ProcView(privateProc: setup.privateProc, root: root, hidepid: ProcView.hostHidepid())
        layers.append(proc.layer)
        // Its environment and its /proc folder closed to the user's cases (and its other processes).
        dumpable = proc.privateProc ? nil : Dumpable.close()
        layers.append(Self.folderLayer(setup.confinement, bytes: folderBytes))
        self.layers = layers
        self.notes = notes
    }

    /// The layers every host has, as `name: detail` lines.
    package static let alwaysOn = [
        ContainmentLayer.on("process group per case", "ended with the case"),
        .on(
            "terminal",
            "cases, their crash reports' second runs and builds give up asmrun's controlling terminal: "
                + "no /dev/tty, no TIOCSTI into your shell (the filter refuses it too)"),
    ]

    /// One line per active layer.
    package var active: [String] {
        (Self.alwaysOn + layers.filter(\.active)).map(\.line)
    }

    /// What bounds the files a case writes: its worker's tmpfs, or only the size of each file.
    private static func folderLayer(_ confinement: Confinement, bytes: Int) -> ContainmentLayer {
        let perFile =
            "each file up to its file-size limit (64 MiB) and --scratch-limit (\(bytes >> 20) MiB), "
            + "their total up to what the scratch folder's file system holds"
        guard confinement.caseNamespaces else { return .off("folder size", "no mount namespace per worker: " + perFile) }
        guard WardenTable.allowed else { return .off("folder size", "no wardens (ASMRUN_WARDENS=0): " + perFile) }
        return .on(
            "folder size",
            "each worker's folder a tmpfs of \(bytes >> 20) MiB and \(folderInodes) files and folders (--scratch-limit); "
                + "a case that fills it fails")
    }

    /// The unavailable namespace layers in one note, and the capability and filter layers.
    private static func notes(for setup: NamespaceSetup) -> [String] {
        let missing = setup.layers.filter { !$0.active && ["pid", "ipc", "uts", "net", "mount"].contains($0.name) }
        var notes: [String] = []
        if !missing.isEmpty {
            let all = missing.count == 5
            let problems = setup.problems.isEmpty ? "" : " (\(setup.problems.joined(separator: "; ")))"
            notes.append(
                "isolation \(all ? "unavailable" : "incomplete"): no \(missing.map(\.name).joined(separator: ", ")) namespaces\(problems)"
                    + (all ? "; cases run with the network and file system of the user" : ""))
        }
        for layer in setup.layers where !layer.active && ["caps", "seccomp"].contains(layer.name) {
            notes.append("isolation incomplete: \(layer.line)")
        }
        return notes
    }

    /// Gives `path` (a case's folder, or a file put in it) to the user cases run as; false when
    /// that fails. Nothing to do where cases run as asmrun's user.
    package func handOver(_ path: String) -> Bool {
        guard let identity = confinement.identity else { return true }
        return lchown(path, identity.uid, identity.gid) == 0
    }

    /// Whether cgroups bound the cases' processes (pids.max): RLIMIT_NPROC, which counts every
    /// process of the case's user on the host, is then left as it is.
    package var countsProcessesInCgroups: Bool { cgroups != nil }

    /// Starts a case: its cgroup (if any) is created with `processes` (or the default) as
    /// pids.max, the case's init counted on top; pass `procsFile` to the launcher.
    package func beginCase(processes: Int? = nil) -> CaseScope {
        guard let cgroups else { return CaseScope(cgroup: nil, maxProcesses: nil, procsFile: nil) }
        let index = counter.add(1, ordering: .relaxed).newValue
        let limit = (processes ?? Self.maxProcesses) + (confinement.caseNamespaces ? 1 : 0)
        let cgroup = cgroups.makeCase(index, maxProcesses: limit)
        return CaseScope(cgroup: cgroup, maxProcesses: limit, procsFile: cgroup.map(cgroups.joinPath))
    }

    /// Ends whatever the case left running (escaped daemons included) and removes its cgroup.
    /// Returns how many processes had to be killed.
    @discardableResult
    package func endCase(_ scope: CaseScope) -> Int {
        if let cgroup = scope.cgroup { return cgroups?.killAll(in: cgroup, keepingWith: scope.maxProcesses) ?? 0 }
        return strays?.endStrays() ?? 0
    }

    /// Removes the cgroup tree, ends the last orphans, gives the subreaper lease back and closes
    /// the namespace descriptors. With `reapingAll` (asmrun owns the process), also collects
    /// zombies nothing identifies any more.
    package func close(reapingAll: Bool = false) {
        // Every warden is told to end before any is waited for: their namespaces are torn down
        // side by side.
        let ended = wardens.removeAll()
        for warden in ended { warden.end() }
        for warden in ended { retire(warden) }
        cgroups?.remove()
        strays?.endStrays()
        if reapingAll { strays?.reapAllZombies() }
        if leasedSubreaper { Subreaper.release() }
        namespaces?.close()
        Dumpable.restore(dumpable)
    }

    /// The tasks on the host (`/proc/loadavg`: `0.10 0.20 0.30 RUNNING/TOTAL LAST`), an upper
    /// bound of the user's: RLIMIT_NPROC counts every task of the user, so the limit is this
    /// plus the case's allowance. Reading it costs the same whatever the host runs (counting the
    /// user's own tasks would mean a scan of /proc).
    static func userProcessCount() -> Int {
        let fd = Glibc.open("/proc/loadavg", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = Glibc.read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 4, let slash = fields[3].firstIndex(of: UInt8(ascii: "/")) else { return 0 }
        return Int(String(decoding: fields[3][(slash + 1)...], as: UTF8.self)) ?? 0
    }
}

/// A case's containment handle.
package struct CaseScope: Sendable {
    /// The case's cgroup folder, when cgroups are in use.
    let cgroup: String?
    /// Its `pids.max`.
    var maxProcesses: Int?

    /// The file in it the child joins by (`CgroupTree.joinPath`).
    package let procsFile: String?
}
