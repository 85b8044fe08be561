import Glibc
import Processes
import Support
import Synchronization

/// Ends the orphans of a run's cases where no cgroup holds them. asmrun is their subreaper, so
/// they become its children; they are recognised by a process group the run's launcher created
/// or by the case environment (`TMPDIR` of the run's writable folder), so another child of the
/// same process is never touched.
final class StrayReaper: Sendable {
    private let children: ChildRegistry
    /// `TMPDIR=<writable>/`: every case process carries it.
    private let marker: [UInt8]
    /// Killed orphans that had not exited by the deadline, reaped later.
    private let unreaped = Mutex<Set<pid_t>>([])

    init(children: ChildRegistry, writable: String) {
        self.children = children
        marker = Array("TMPDIR=\(writable)/".utf8)
    }

    /// Kills and reaps every orphan of this run's cases; returns how many were alive.
    /// Only the scan holds spawns off (a child between its spawn and its registration must not
    /// look like an orphan); waiting for the killed ones happens on their pidfds, outside it.
    @discardableResult
    func endStrays() -> Int {
        var count = 0
        // Each round ends one generation: a killed orphan's own children are orphaned in turn.
        for _ in 0..<8 {
            let doomed = SpawnGate.exclusive { collect() }
            if doomed.isEmpty { break }
            count += doomed.count
            ProcessExit.signalAndAwait(doomed)
            reap(doomed)
        }
        reap(Array(unreaped.withLock { $0 }))
        return count
    }

    /// Reaps zombies nothing identifies any more (a daemon whose parent exited by itself), for
    /// a caller that owns the whole process.
    func reapAllZombies() {
        for stray in Self.strayChildren(excluding: children) where stray.zombie {
            var status: Int32 = 0
            _ = waitpid(stray.pid, &status, WNOHANG)
        }
    }

    /// Reaps finished orphans of the run's cases and returns the live ones.
    private func collect() -> [pid_t] {
        var doomed: [pid_t] = []
        for stray in Self.strayChildren(excluding: children) {
            let fromCase = children.createdGroup(stray.group) || unreaped.withLock { $0.contains(stray.pid) }
            if stray.zombie {
                if fromCase { reap([stray.pid]) }
            } else if fromCase || isCaseProcess(stray.pid) {
                doomed.append(stray.pid)
            }
        }
        return doomed
    }

    private func reap(_ pids: [pid_t]) {
        for pid in pids {
            var status: Int32 = 0
            let stillRunning = waitpid(pid, &status, WNOHANG) == 0
            unreaped.withLock { set in
                if stillRunning { set.insert(pid) } else { set.remove(pid) }
            }
        }
    }

    private func isCaseProcess(_ pid: pid_t) -> Bool {
        guard let environ = try? Files.read("/proc/\(pid)/environ") else { return false }
        return ([0] + [UInt8](environ)).firstRange(of: [0] + marker) != nil
    }

    /// Children of this process that the registry's launcher is not supervising: orphans handed
    /// to the subreaper, or children of whatever else shares this process. Found through each
    /// thread's `children` list, so the cost does not grow with the host's processes; a kernel
    /// without those lists gets a scan of /proc.
    static func strayChildren(excluding children: ChildRegistry) -> [(pid: pid_t, zombie: Bool, group: pid_t)] {
        candidates().compactMap { pid in
            guard !children.contains(pid), let bytes = try? Files.read("/proc/\(pid)/stat"),
                case let stat = String(decoding: bytes, as: UTF8.self),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[1]) == getpid() else { return nil }
            return (pid, fields[0] == "Z", pid_t(fields[2]) ?? 0)
        }
    }

    /// The pids of this process's children, from every thread's list.
    private static func candidates() -> [pid_t] {
        guard let threads = try? Files.list("/proc/self/task"), !threads.isEmpty,
            Files.exists("/proc/self/task/\(threads[0])/children")
        else { return ((try? Files.list("/proc")) ?? []).compactMap { pid_t($0) } }
        var pids: [pid_t] = []
        for thread in threads {
            guard let list = try? Files.read("/proc/self/task/\(thread)/children") else { continue }
            pids += list.split(separator: UInt8(ascii: " ")).compactMap { pid_t(String(decoding: $0, as: UTF8.self)) }
        }
        return pids
    }
}
