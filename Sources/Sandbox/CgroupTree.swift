import Glibc
import Processes
import Support
import Synchronization

/// asmrun's own pids cgroup, `asmrun-run-PID-N-NS` (NS: its pid namespace), locked by the run, with one child cgroup
/// per case; cgroup v2 when `/sys/fs/cgroup` is the unified hierarchy, else the v1 `pids` hierarchy.
struct CgroupTree: Sendable {
    let kind: String
    let base: String
    /// Case cgroups that ended empty, with their pids.max, for the next cases: making and
    /// removing one was a tenth of what a case cost.
    private let spares = Spares()

    private final class Spares: Sendable {
        let list = Mutex<[(path: String, maxProcesses: Int)]>([])
    }

    /// The file a case's process writes `0` to, to join its cgroup. Every joiner is a process
    /// of one thread (a vfork child, an init or a warden), so on cgroup v1 it is `tasks`: moving
    /// only the calling thread takes no global lock, while `cgroup.procs` write-locks the
    /// kernel's thread-group semaphore and waits out an RCU grace period, 12 to 19 ms here for
    /// the first join of a run, before its first case. cgroup v2 moves threads only inside a
    /// threaded subtree, so there it is `cgroup.procs`.
    let joinFile: String

    /// The descriptor of `base` this run holds its lock on (-1: none).
    private let lock: Int32

    init(kind: String, base: String, joinFile: String = "cgroup.procs", lock: Int32 = -1) {
        self.kind = kind
        self.base = base
        self.joinFile = joinFile
        self.lock = lock
    }

    /// The file in `cgroup` a process joins it by.
    func joinPath(of cgroup: String) -> String { cgroup + "/" + joinFile }

    private static let instances = Atomic<Int>(0)

    /// Creates the tree in the hierarchy's root, or in `group` (a cgroup below it, such as a
    /// delegated one: `ASMRUN_CGROUP_PARENT`), where abandoned trees are also swept; `nil` when
    /// no writable pids controller exists there.
    static func create(in group: String? = nil) -> CgroupTree? {
        var below = ""
        if let group {
            guard let valid = validGroup(group) else { return nil }
            below = valid
        }
        let unified = "/sys/fs/cgroup" + below
        let legacy = "/sys/fs/cgroup/pids" + below
        for parent in [unified, legacy] { removeAbandoned(in: parent) }
        if let controllers = read(unified + "/cgroup.controllers"), controllers.split(separator: " ").contains("pids"),
            let (base, lock) = makeBase(in: unified)
        {
            if write("+pids", to: base + "/cgroup.subtree_control") {
                return CgroupTree(kind: "cgroup v2", base: base, lock: lock)
            }
            rmdir(base)
            close(lock)
        }
        if access(legacy + "/cgroup.procs", F_OK) == 0, let (base, lock) = makeBase(in: legacy) {
            if access(base + "/pids.max", F_OK) == 0 {
                return CgroupTree(kind: "cgroup v1", base: base, joinFile: "tasks", lock: lock)
            }
            rmdir(base)
            close(lock)
        }
        return nil
    }

    /// `/NAME/…` for a relative cgroup name of plain components (no `.`, `..` or empty ones),
    /// else `nil`.
    static func validGroup(_ name: String) -> String? {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count < 1024,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") })
        else { return nil }
        return "/" + name
    }

    /// A new folder for a tree in `parent`, `asmrun-run-PID-N-NS`, and the descriptor that holds
    /// its lock for as long as the run lives (the kernel lets go of it when the run dies, however
    /// it dies). A sweeper may take a folder between its `mkdir` and its lock: the folder is then
    /// gone once the lock is ours, and the next name is tried. A name taken (the same pid in
    /// another pid namespace) is never shared.
    private static func makeBase(in parent: String) -> (String, Int32)? {
        for _ in 0..<8 {
            // Unique per tree, not only per process: a library user may run several suites at once.
            let name = "\(ownedPrefix)\(getpid())-\(instances.add(1, ordering: .relaxed).newValue)-\(pidNamespace)"
            let base = parent + "/" + name
            guard mkdir(base, 0o755) == 0 else {
                if errno == EEXIST { continue }
                return nil
            }
            let lock = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard lock >= 0 else {
                rmdir(base)
                return nil
            }
            var held = stat()
            var named = stat()
            if flock(lock, LOCK_EX) == 0, fstat(lock, &held) == 0, stat(base, &named) == 0, held.st_ino == named.st_ino {
                return (base, lock)
            }
            close(lock)
        }
        return nil
    }

    /// How the trees this version makes are named: their owner holds a lock on the folder.
    static let ownedPrefix = "asmrun-run-"

    /// Trees of asmruns that died without removing them: what still runs in their case cgroups
    /// is killed and the cgroups removed. A tree is abandoned when nobody holds the lock on its
    /// folder, whichever pid namespace (a container, `unshare -p`) made it and whoever has its
    /// pid now. Trees named `asmrun-PID-N-NS` by earlier versions, which took no lock, are
    /// abandoned when their pid is gone from this pid namespace.
    static func removeAbandoned(in parent: String) {
        for name in (try? Files.list(parent)) ?? [] where name.hasPrefix("asmrun-") {
            let base = parent + "/" + name
            if name.hasPrefix(ownedPrefix) {
                let lock = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard lock >= 0 else { continue }
                defer { close(lock) }
                guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
                CgroupTree(kind: "abandoned", base: base).remove()
                continue
            }
            let parts = name.split(separator: "-")
            // Three parts: a tree named before the namespace was part of the name.
            guard parts.count == 4 || parts.count == 3, let pid = pid_t(parts[1]), pid != getpid(), Int(parts[2]) != nil,
                parts.count == 3 || parts[3] == pidNamespace, kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            CgroupTree(kind: "abandoned", base: base).remove()
        }
    }

    /// A case cgroup with `pids.max`, or `nil` if it cannot be made (the case runs without): one
    /// an earlier case left empty, or a new one.
    func makeCase(_ index: Int, maxProcesses: Int) -> String? {
        if let spare = spares.list.withLock({ $0.popLast() }) {
            if spare.maxProcesses == maxProcesses || Self.write("\(maxProcesses)", to: spare.path + "/pids.max") {
                return spare.path
            }
            rmdir(spare.path)
        }
        let path = base + "/case-\(index)"
        guard mkdir(path, 0o755) == 0, Self.write("\(maxProcesses)", to: path + "/pids.max") else {
            rmdir(path)
            return nil
        }
        return path
    }

    /// Sets a case cgroup's `pids.max` (a warden's, before its next case).
    func setMaxProcesses(_ limit: Int, in path: String) -> Bool { Self.write("\(limit)", to: path + "/pids.max") }

    /// Kills every process in a case cgroup and removes it (one found empty is kept for the
    /// next case when its `pids.max` is given); returns how many were alive.
    func killAll(in path: String, keepingWith maxProcesses: Int?) -> Int {
        let procs = path + "/cgroup.procs"
        var pids = Self.pids(in: procs)
        if pids.isEmpty {
            if let maxProcesses {
                spares.list.withLock { $0.append((path, maxProcesses)) }
            } else {
                rmdir(path)
            }
            return 0
        }
        // No new processes from here on, so each round can only shrink the set.
        _ = Self.write("0", to: path + "/pids.max")
        let alive = pids.count
        for _ in 0..<16 where !pids.isEmpty {
            ProcessExit.signalAndAwait(pids)
            pids = Self.pids(in: procs)
        }
        rmdir(path)
        return alive
    }

    /// Removes the case cgroups left and the base, then lets go of its lock.
    func remove() {
        for name in (try? Files.list(base)) ?? [] where name.hasPrefix("case-") {
            _ = killAll(in: base + "/" + name, keepingWith: nil)
        }
        rmdir(base)
        if lock >= 0 { close(lock) }
    }

    /// This process's pid namespace (the inode number of `/proc/self/ns/pid`).
    static let pidNamespace: Substring = {
        var info = stat()
        return stat("/proc/self/ns/pid", &info) == 0 ? "\(info.st_ino)"[...] : "0"
    }()

    private static func pids(in file: String) -> [pid_t] {
        (read(file) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    private static func read(_ path: String) -> String? {
        guard let data = try? Files.read(path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingWhitespace()
    }

    private static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(Array(text.utf8), to: fd)
    }
}
