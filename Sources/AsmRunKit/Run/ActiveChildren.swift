import Glibc
import Synchronization

/// Every child asmrun is supervising right now, so an interrupt can end them all.
public final class ActiveChildren: Sendable {
    /// The process-wide registry.
    public static let shared = ActiveChildren()

    private let children = Mutex<[pid_t: Bool]>([:])
    private let groups = Mutex<Set<pid_t>>([])

    func insert(_ pid: pid_t, group: Bool) {
        children.withLock { $0[pid] = group }
        if group { _ = groups.withLock { $0.insert(pid) } }
    }

    /// Whether asmrun created the process group `pgid` (its leader was a child asmrun started).
    /// Orphans of a case keep their group even as zombies, which is how asmrun knows to reap them.
    public func createdGroup(_ pgid: pid_t) -> Bool { groups.withLock { $0.contains(pgid) } }

    func remove(_ pid: pid_t) {
        _ = children.withLock { $0.removeValue(forKey: pid) }
    }

    /// Whether `pid` is a child asmrun started and still supervises.
    public func contains(_ pid: pid_t) -> Bool { children.withLock { $0[pid] != nil } }

    /// Sends `signal` to every child, and to its whole process group where it has one.
    public func signalAll(_ signal: Int32) {
        children.withLock { children in
            for (pid, group) in children {
                _ = kill(group ? -pid : pid, signal)
            }
        }
    }
}
