import CAsmRunSpawn
import Glibc
import Support

/// Waiting for processes to end without sleeping: a pidfd becomes readable when its process
/// exits, so `poll` wakes exactly then.
package enum ProcessExit {
    /// Sends `signal` to each of `pids` and waits, at most `seconds`, until all have exited.
    /// Returns false when some were still running at the deadline.
    @discardableResult
    package static func signalAndAwait(_ pids: [pid_t], signal: Int32 = SIGKILL, seconds: Double = 2) -> Bool {
        // Opened before the signal, so a recycled pid can never be mistaken for the process.
        var watched: [pollfd] = []
        var unwatched: [pid_t] = []
        for pid in pids {
            let fd = asmrun_pidfd_open(pid)
            if fd >= 0 {
                watched.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            } else if errno != ESRCH {
                unwatched.append(pid)
            }
            kill(pid, signal)
        }
        defer { for entry in watched { close(entry.fd) } }
        let deadline = monotonicSeconds() + seconds
        var remaining = watched
        while !remaining.isEmpty {
            let wait = deadline - monotonicSeconds()
            if wait <= 0 { return false }
            let ready = poll(&remaining, nfds_t(remaining.count), Int32(wait * 1000) + 1)
            if ready < 0 && errno != EINTR { return false }
            remaining.removeAll { $0.revents != 0 }
        }
        // Kernels before 5.3 have no pidfd: only our own children can be waited for there.
        for pid in unwatched {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return true
    }
}
