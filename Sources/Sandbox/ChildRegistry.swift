import Glibc
import Synchronization

/// The children one run is supervising right now, owned by its launcher: an interrupt ends them
/// all, and the orphan reaper tells a case's leftovers from a child still being watched. Each
/// launcher has its own, so two suites in one process never signal each other's children.
package final class ChildRegistry: Sendable {
    private struct State {
        /// Supervised children, and whether each leads its own process group.
        var children: [pid_t: Bool] = [:]
        /// Every process group this registry's launcher created.
        var groups: Set<pid_t> = []
        /// An interrupt ended the children: one spawned after it is ended at once.
        var ending = false
    }

    private let state = Mutex(State())

    package init() {}

    func insert(_ pid: pid_t, group: Bool) {
        state.withLock { state in
            state.children[pid] = group
            if group { state.groups.insert(pid) }
            // Spawned between an interrupt and the scheduler noticing it: it must not run on.
            if state.ending { _ = kill(group ? -pid : pid, SIGKILL) }
        }
    }

    /// Stops supervising `pid`; true when an interrupt ended the children while it ran.
    @discardableResult
    func remove(_ pid: pid_t) -> Bool {
        state.withLock { state in
            state.children.removeValue(forKey: pid)
            return state.ending
        }
    }

    /// Whether the launcher created the process group `pgid`. Orphans of a case keep their group
    /// even as zombies, which is how they are recognised.
    package func createdGroup(_ pgid: pid_t) -> Bool { state.withLock { $0.groups.contains(pgid) } }

    /// Whether `pid` is a child still supervised.
    package func contains(_ pid: pid_t) -> Bool { state.withLock { $0.children[pid] != nil } }

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

    /// Lets children run again after `endAll`.
    package func resume() {
        state.withLock { $0.ending = false }
    }
}
