import CAsmRunSpawn
import Foundation
import Glibc
import Synchronization

/// Ctrl-C and SIGTERM during a suite: the first stops new cases and kills running ones (the
/// reports are still written, marked incomplete); a second exits at once. A C handler writes
/// the signal to a pipe; a watcher thread acts on it.
final class InterruptHandler: Sendable {
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let hits = Counter()
    private let pipe: (read: Int32, write: Int32)

    init(onInterrupt: @escaping @Sendable () -> Void) {
        var fds: [Int32] = [-1, -1]
        _ = asmrun_pipe_cloexec(&fds)
        pipe = (fds[0], fds[1])
        let hits = self.hits
        let readEnd = fds[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let count = hits.value.add(1, ordering: .relaxed).newValue
                ActiveChildren.shared.signalAll(SIGKILL)
                if count > 1 { _exit(130) }
                onInterrupt()
            }
        }
        _ = asmrun_catch_interrupts(fds[1])
    }

    /// Restores default handling; true when an interrupt arrived.
    func stop() -> Bool {
        asmrun_release_interrupts()
        close(pipe.write)
        return hits.value.load(ordering: .relaxed) > 0
    }
}
