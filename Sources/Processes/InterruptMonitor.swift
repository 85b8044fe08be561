import CAsmRunSpawn
import Glibc
import Support
import Synchronization

/// Ctrl-C and SIGTERM for one run: each interrupt kills the run's children (the registry's, and
/// any it spawns until `stop`) and calls `onInterrupt` with how many interrupts arrived so far.
/// Monitors are per run; the signal handler they share is installed while any monitor listens
/// and restored after the last.
package final class InterruptMonitor: Sendable {
    /// Who hands an interrupt to the monitor.
    package enum Delivery: Sendable {
        /// The supervisors waiting on the run's children: enough for a run that waits for nothing
        /// else (a single program's build, where starting a thread was a tenth of its start-up).
        case byWaiters
        /// A reader thread as well: the run must act on Ctrl-C while no child runs.
        case anytime
    }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let count = Counter()
    private let children: ChildRegistry
    private let subscription: Int

    package init(
        children: ChildRegistry, delivery: Delivery = .anytime, onInterrupt: @escaping @Sendable (_ count: Int) -> Void
    ) {
        let count = self.count
        self.children = children
        subscription = InterruptDispatch.process.subscribe(reader: delivery == .anytime) {
            let hits = count.value.add(1, ordering: .relaxed).newValue
            children.endAll()
            onInterrupt(hits)
        }
    }

    /// Whether an interrupt arrived so far (also one no waiter had handed over yet); the monitor
    /// listens on.
    package var interrupted: Bool {
        InterruptDispatch.process.deliverPending()
        return count.value.load(ordering: .relaxed) > 0
    }

    /// Stops listening; true when an interrupt arrived (also one no waiter had handed over yet).
    /// Children ended by it may start again, unless `handingOver` to a monitor of the same
    /// children that already listens: theirs is then still an interrupted run.
    package func stop(handingOver: Bool = false) -> Bool {
        let interrupted = self.interrupted
        InterruptDispatch.process.unsubscribe(subscription)
        if !handingOver { children.resume() }
        return interrupted
    }

    /// The descriptor a supervisor adds to its `poll` while monitors listen and no thread reads
    /// it (-1 otherwise); when it is readable, the supervisor calls `deliverPending`.
    static var waitDescriptor: Int32 { InterruptDispatch.process.waitDescriptor }

    /// Hands the interrupts that arrived to every monitor.
    static func deliverPending() { InterruptDispatch.process.deliverPending() }
}

/// Signal dispositions are the process's, so this is: one C handler writes each signal to a pipe,
/// and whoever waits reads it and hands it to every subscribed monitor, outside any lock. The
/// pipe, and the reader thread once one was asked for, last as long as the process: a
/// supervisor may still be polling the descriptor when the last monitor stops.
private final class InterruptDispatch: Sendable {
    static let process = InterruptDispatch()

    private struct State {
        /// A few at a time (a run's monitors): a dictionary keyed by Int was 6 % of a single run's
        /// instructions, the first use of its generic type looking through every conformance.
        var subscribers: [(id: Int, notify: @Sendable () -> Void)] = []
        var next = 0
        /// Both ends non-blocking: the handler never waits on a full pipe, and readers racing for
        /// one byte do not hang.
        var readEnd: Int32 = -1
        var writeEnd: Int32 = -1
        var reading = false
        var catching = false
    }

    private let state = Mutex(State())
    private let waiting = Atomic<Int32>(-1)

    var waitDescriptor: Int32 { waiting.load(ordering: .acquiring) }

    func subscribe(reader: Bool, _ subscriber: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            if state.readEnd < 0 { makePipe(&state) }
            if reader && !state.reading && state.readEnd >= 0 { state.reading = startReader(state.readEnd) }
            if state.subscribers.isEmpty && state.writeEnd >= 0 { state.catching = asmrun_catch_interrupts(state.writeEnd) == 0 }
            waiting.store(state.catching && !state.reading ? state.readEnd : -1, ordering: .releasing)
            state.next += 1
            state.subscribers.append((state.next, subscriber))
            return state.next
        }
    }

    func unsubscribe(_ id: Int) {
        let readEnd = state.withLock { state -> Int32 in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return -1 }
            state.subscribers.remove(at: index)
            guard state.subscribers.isEmpty else { return -1 }
            if state.catching { asmrun_release_interrupts() }
            state.catching = false
            waiting.store(-1, ordering: .releasing)
            return state.readEnd
        }
        // What arrived for no one must not reach the next run's monitors.
        if readEnd >= 0 { deliver(from: readEnd) }
    }

    func deliverPending() {
        let readEnd = state.withLock { $0.readEnd }
        if readEnd >= 0 { deliver(from: readEnd) }
    }

    /// Reads every byte the handler wrote and, for each, notifies the subscribers of the moment.
    private func deliver(from readEnd: Int32) {
        var bytes = (UInt64(0), UInt64(0))
        while true {
            let got = withUnsafeMutableBytes(of: &bytes) { read(readEnd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return }
            let subscribers = state.withLock { $0.subscribers.map(\.notify) }
            for _ in 0..<got {
                for subscriber in subscribers { subscriber() }
            }
        }
    }

    private func makePipe(_ state: inout State) {
        var fds: [Int32] = [-1, -1]
        guard asmrun_pipe_nonblocking(&fds) == 0 else { return }
        (state.readEnd, state.writeEnd) = (fds[0], fds[1])
    }

    private func startReader(_ readEnd: Int32) -> Bool {
        DetachedThread.start(stackSize: 256 << 10) { [self] in
            while true {
                var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                deliver(from: readEnd)
            }
        }
    }
}
