import CAsmRunSpawn
import Glibc
import Support
import Synchronization

/// Ctrl-C and SIGTERM for one run: each interrupt kills the run's children (the registry's, and
/// any it spawns until `stop`) and calls `onInterrupt` with how many interrupts arrived so far.
/// Monitors are per run; the signal handler they share is installed while any monitor listens
/// and restored after the last.
package final class InterruptMonitor: Sendable {
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let count = Counter()
    private let children: ChildRegistry
    private let subscription: Int

    package init(children: ChildRegistry, onInterrupt: @escaping @Sendable (_ count: Int) -> Void) {
        let count = self.count
        self.children = children
        subscription = InterruptDispatch.process.subscribe {
            let hits = count.value.add(1, ordering: .relaxed).newValue
            children.endAll()
            onInterrupt(hits)
        }
    }

    /// Stops listening; true when an interrupt arrived.
    package func stop() -> Bool {
        InterruptDispatch.process.unsubscribe(subscription)
        children.resume()
        return count.value.load(ordering: .relaxed) > 0
    }
}

/// Signal dispositions are the process's, so this is: one C handler writes each signal to a pipe
/// and one thread hands it to every subscribed monitor, outside any lock.
private final class InterruptDispatch: Sendable {
    static let process = InterruptDispatch()

    private struct State {
        /// A few at a time (a run's monitors): a dictionary keyed by Int was 6 % of a single run's
        /// instructions, the first use of its generic type looking through every conformance.
        var subscribers: [(id: Int, notify: @Sendable () -> Void)] = []
        var next = 0
        var writeEnd: Int32 = -1
    }

    private let state = Mutex(State())

    func subscribe(_ subscriber: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            if state.subscribers.isEmpty { state.writeEnd = install() }
            state.next += 1
            state.subscribers.append((state.next, subscriber))
            return state.next
        }
    }

    func unsubscribe(_ id: Int) {
        state.withLock { state in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return }
            state.subscribers.remove(at: index)
            guard state.subscribers.isEmpty else { return }
            asmrun_release_interrupts()
            // The reader sees end-of-file, closes its end and returns.
            if state.writeEnd >= 0 { close(state.writeEnd) }
            state.writeEnd = -1
        }
    }

    /// Creates the pipe, starts its reader and installs the handler; returns the write end.
    private func install() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard asmrun_pipe_cloexec(&fds) == 0 else { return -1 }
        let readEnd = fds[0]
        let reading = DetachedThread.start(stackSize: 256 << 10) { [self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let subscribers = state.withLock { $0.subscribers.map(\.notify) }
                for subscriber in subscribers { subscriber() }
            }
            close(readEnd)
        }
        guard reading else {
            close(readEnd)
            close(fds[1])
            return -1
        }
        _ = asmrun_catch_interrupts(fds[1])
        return fds[1]
    }
}
