import Glibc
import Synchronization

/// The children one run is supervising right now, owned by its launcher: an interrupt ends them
/// all, and the orphan reaper tells a case's leftovers from a child still being watched. Each
/// launcher has its own, so two suites in one process never signal each other's children.
package final class ChildRegistry: Sendable {
    private struct State {
        /// Supervised children (a few: one per worker and warden), and whether each leads its own
        /// process group. Arrays, not a dictionary and a set keyed by pid_t: the first use of
        /// each generic type looked through every conformance, 6 % of a single run's instructions.
        var children: [(pid: pid_t, group: Bool)] = []
        /// Every process group this registry's launcher created, ascending (pids mostly rise, so
        /// an insertion is an append).
        var groups: [pid_t] = []
        /// An interrupt ended the children: one spawned after it is ended at once.
        var ending = false

        /// Where `pgid` is or would go in `groups`.
        func groupPosition(_ pgid: pid_t) -> Int {
            if let last = groups.last, last < pgid { return groups.count }
            var low = 0
            var high = groups.count
            while low < high {
                let middle = (low + high) / 2
                if groups[middle] < pgid { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private let state = Mutex(State())

    package init() {}

    func insert(_ pid: pid_t, group: Bool) {
        state.withLock { state in
            state.children.append((pid, group))
            if group {
                let position = state.groupPosition(pid)
                if position == state.groups.count || state.groups[position] != pid { state.groups.insert(pid, at: position) }
            }
            // Spawned between an interrupt and the scheduler noticing it: it must not run on.
            if state.ending { _ = kill(group ? -pid : pid, SIGKILL) }
        }
    }

    /// Stops supervising `pid`; true when an interrupt ended the children while it ran.
    @discardableResult
    func remove(_ pid: pid_t) -> Bool {
        state.withLock { state in
            if let index = state.children.firstIndex(where: { $0.pid == pid }) { state.children.remove(at: index) }
            return state.ending
        }
    }

    /// Whether the launcher created the process group `pgid`. Orphans of a case keep their group
    /// even as zombies, which is how they are recognised.
    package func createdGroup(_ pgid: pid_t) -> Bool {
        state.withLock { state in
            let position = state.groupPosition(pgid)
            return position < state.groups.count && state.groups[position] == pgid
        }
    }

    /// Whether `pid` is a child still supervised.
    package func contains(_ pid: pid_t) -> Bool { state.withLock { $0.children.contains { $0.pid == pid } } }

    /// Kills every supervised child, with its whole process group where it has one, and every
    /// child spawned from now on, until `resume`.
    package func endAll() {
        state.withLock { state in
            state.ending = true
            for (pid, group) in state.children {
                _ = kill(group ? -pid : pid, SIGKILL)
            }
        }
    }

    /// Whether the run is being ended (`endAll` and no `resume` since): long work between
    /// children (copying a case's files) stops.
    package var isEnding: Bool { state.withLock { $0.ending } }

    /// Lets children run again after `endAll`.
    package func resume() {
        state.withLock { $0.ending = false }
    }
}
