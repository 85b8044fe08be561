import CAsmRunSpawn
import Glibc
import Support
import Synchronization

/// The deadlines of children whose supervisor waits for them in `waitid` (a tool: no pipes to
/// drain, no interrupt to hand over), kept by one thread for the whole process: a child whose
/// time is up gets what `Supervisor`'s poll loop sends the others, SIGTERM to its group, then
/// SIGKILL after the grace. A pidfd per tool, the poll loop's way, cost a pidfs inode and its
/// release: 11.6 µs of system calls per tool here (`pidfd_open` and `close` of a fresh child's).
///
/// A child is watched until its supervisor saw it exit (`waitid` with WNOWAIT, which leaves it
/// unreaped) and released it, so its pid and group are still its own when a signal is sent.
/// New children rarely wake the thread: it sleeps until the earliest deadline, and a later
/// one (a tool started after another, with the same timeout) needs no earlier wake-up.
final class Deadlines: Sendable {
    static let shared = Deadlines()

    private struct Watched {
        let ticket: Int
        let pid: pid_t
        let group: Bool
        var due: Double
        let grace: Double
        /// 0, then SIGTERM (1) and SIGKILL (2) sent.
        var signals = 0
    }

    private struct State {
        var watched: [Watched] = []
        var next = 0
        /// When the thread wakes next (`.infinity`: only when woken); nil before it started.
        var wakesAt: Double?
        /// The pipe that wakes it (both ends non-blocking).
        var wake: (read: Int32, write: Int32) = (-1, -1)
    }

    private let state = Mutex(State())

    /// Watches `pid` until `release`; nil when the thread could not be started (the caller then
    /// supervises the child on its own).
    func watch(_ pid: pid_t, group: Bool, due: Double, grace: Double) -> Int? {
        let (ticket, wake) = state.withLock { state -> (Int?, Int32) in
            if state.wakesAt == nil && !start(&state) { return (nil, -1) }
            state.next += 1
            state.watched.append(Watched(ticket: state.next, pid: pid, group: group, due: due, grace: grace))
            guard due < state.wakesAt ?? .infinity else { return (state.next, -1) }
            state.wakesAt = due
            return (state.next, state.wake.write)
        }
        if wake >= 0 {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)
        }
        return ticket
    }

    /// Stops watching the child of `ticket` (which exited); true when its time had run out.
    func release(_ ticket: Int) -> Bool {
        state.withLock { state in
            guard let index = state.watched.firstIndex(where: { $0.ticket == ticket }) else { return false }
            return state.watched.remove(at: index).signals > 0
        }
    }

    private func start(_ state: inout State) -> Bool {
        var fds: [Int32] = [-1, -1]
        guard asmrun_pipe_nonblocking(&fds) == 0 else { return false }
        let read = fds[0]
        guard DetachedThread.start(stackSize: 128 << 10, { [self] in keep(wakingOn: read) }) else {
            close(fds[0])
            close(fds[1])
            return false
        }
        state.wake = (fds[0], fds[1])
        state.wakesAt = .infinity
        return true
    }

    /// The thread: signals the children whose time is up, sleeps until the next deadline.
    private func keep(wakingOn wake: Int32) {
        while true {
            let timeout = state.withLock { state -> Int32 in
                let now = monotonicSeconds()
                var next = Double.infinity
                for index in state.watched.indices {
                    if state.watched[index].due <= now { Self.signal(&state.watched[index], now: now) }
                    if state.watched[index].signals < 2 { next = min(next, state.watched[index].due) }
                }
                state.wakesAt = next
                return next == .infinity ? -1 : Int32(max(0, min((next - now) * 1000 + 1, 86_400_000)))
            }
            var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, timeout) > 0 {
                var bytes = (UInt64(0), UInt64(0))
                while withUnsafeMutableBytes(of: &bytes, { Glibc.read(wake, $0.baseAddress, $0.count) }) > 0 {}
            }
        }
    }

    /// SIGTERM to the child's group at its deadline, SIGKILL a grace later.
    private static func signal(_ child: inout Watched, now: Double) {
        guard child.signals < 2 else { return }
        child.signals += 1
        Supervisor.send(child.signals == 1 ? SIGTERM : SIGKILL, to: child.pid, group: child.group)
        child.due = now + child.grace
    }
}
