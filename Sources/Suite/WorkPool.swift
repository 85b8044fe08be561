import Processes
import Support
import Synchronization

/// A fixed set of worker threads (not the Swift concurrency pool: jobs block in `poll` and
/// `waitpid`) running jobs that may submit more jobs; `run` returns when none are left.
///
/// With no more workers than processors, each worker keeps to a processor of its own, and so do
/// the warden, the tools and the programs it starts: a case's handshake (worker, warden,
/// program, warden, worker) then wakes no other processor, and `exec` does not move the program
/// to an idle one. 200 cached one-line programs at -j2 took 15 % less time, at -j1 4 % less,
/// and a cold suite 5 % less. A case therefore sees one processor in its affinity mask; with
/// more workers than processors nothing is pinned.
final class WorkPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var urgent: [Job] = []
        var normal: [Job] = []
        var pending = 0
    }

    private let state = Mutex(State())
    private let available = Semaphore()
    private let done = Semaphore()
    private let workers: Int

    init(workers: Int) { self.workers = max(1, workers) }

    /// Queues a job; `urgent` jobs (runs of already-built programs) go before the others.
    func submit(urgent: Bool = false, _ job: @escaping Job) {
        state.withLock { state in
            state.pending += 1
            if urgent { state.urgent.append(job) } else { state.normal.append(job) }
        }
        available.signal()
    }

    /// Starts the workers and blocks until every submitted job (and those they submit) ran.
    func run() {
        let idle = state.withLock { $0.pending == 0 }
        if idle { return }
        let pinned = workers <= Processors.affinityCount() ?? 0
        let started = (0..<workers).filter { index in
            DetachedThread.start(stackSize: 1 << 20) { [self] in
                if pinned { Processors.pinCurrentThread(to: index) }
                work()
            }
        }.count
        guard started > 0 else { return drainHere() }
        done.wait()
        for _ in 0..<workers { available.signal() }
    }

    /// Without any worker thread (the system refused them all): every job on the calling thread.
    private func drainHere() {
        while let job = state.withLock({ state -> Job? in
            if !state.urgent.isEmpty { return state.urgent.removeFirst() }
            return state.normal.isEmpty ? nil : state.normal.removeFirst()
        }) {
            job()
        }
    }

    private func work() {
        while true {
            available.wait()
            let job: Job? = state.withLock { state in
                if !state.urgent.isEmpty { return state.urgent.removeFirst() }
                if !state.normal.isEmpty { return state.normal.removeFirst() }
                return nil
            }
            guard let job else { return }
            job()
            let finished = state.withLock { state in
                state.pending -= 1
                return state.pending == 0
            }
            if finished { done.signal() }
        }
    }
}
