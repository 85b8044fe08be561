import Build
import Source
import Support
import Synchronization

/// Builds programs while the rest of the suite is still being discovered and loaded, so every
/// core has work from the first milliseconds: the loading thread offers each program as soon as
/// it is read, and worker threads of this type assemble and link it. The suite runner then takes
/// the result instead of building the program itself; a program not yet started when loading
/// ends is left to the runner.
package final class BuildAhead: Sendable {
    /// What building one program gave, and how long it took.
    package typealias Built = (result: Result<Artifact, any Error>, seconds: Double)

    private final class Entry: Sendable {
        let done = Semaphore()
        let outcome = Mutex<Built?>(nil)
        let taken = Atomic<Bool>(false)
    }

    private struct State {
        var queue: [(path: String, program: Program, entry: Entry)] = []
        var started: [String: Entry] = [:]
        var accepting = true
    }

    private let state = Mutex(State())
    private let available = Semaphore()
    private let finished = Semaphore()
    /// Worker threads started (the system may refuse some).
    private let workers = Atomic<Int>(0)
    private let store: ArtifactStore
    private let toolchain: Toolchain
    private let trace: (@Sendable (String) -> Void)?

    /// Starts `workers` threads (none when `workers` is 0: everything is left to the runner).
    package init(store: ArtifactStore, toolchain: Toolchain, workers: Int, trace: (@Sendable (String) -> Void)?) {
        self.store = store
        self.toolchain = toolchain
        self.trace = trace
        for _ in 0..<max(0, workers) where DetachedThread.start(stackSize: 1 << 20, { [self] in work() }) {
            self.workers.add(1, ordering: .relaxed)
        }
    }

    /// Queues a loaded program (one that can be built) for building.
    package func offer(_ test: TestProgram) {
        guard let program = test.program, test.problem == nil else { return }
        let queued = state.withLock { state in
            guard state.accepting else { return false }
            state.queue.append((test.buildKey, program, Entry()))
            return true
        }
        if queued { available.signal() }
    }

    /// Loading is over: programs not started yet are the runner's to build.
    package func stopAccepting() {
        state.withLock { state in
            state.accepting = false
            state.queue.removeAll()
        }
        for _ in 0..<workers.load(ordering: .relaxed) { available.signal() }
    }

    /// The build of the program at `path`, waiting for it if it is under way; `nil` when it was
    /// never started here.
    package func take(_ path: String) -> Built? {
        guard let entry = state.withLock({ $0.started[path] }) else { return nil }
        entry.done.wait()
        entry.done.signal()
        entry.taken.store(true, ordering: .relaxed)
        return entry.outcome.withLock { $0 }
    }

    /// Waits for the workers and releases what nobody took (programs that turned out to be part
    /// of another, or were filtered out).
    package func close() {
        stopAccepting()
        for _ in 0..<workers.load(ordering: .relaxed) { finished.wait() }
        for entry in state.withLock({ Array($0.started.values) }) where !entry.taken.load(ordering: .relaxed) {
            if case .success(let artifact) = entry.outcome.withLock({ $0 })?.result { artifact.release() }
        }
    }

    private func work() {
        defer { finished.signal() }
        while true {
            available.wait()
            let next = state.withLock { state -> (path: String, program: Program, entry: Entry)? in
                guard state.accepting, !state.queue.isEmpty else { return nil }
                let job = state.queue.removeFirst()
                state.started[job.path] = job.entry
                return job
            }
            guard let next else {
                if state.withLock({ !$0.accepting }) { return }
                continue
            }
            let start = monotonicSeconds()
            let result = Result { try store.build(next.program, toolchain: toolchain, trace: trace) }
            next.entry.outcome.withLock { $0 = (result, monotonicSeconds() - start) }
            next.entry.done.signal()
        }
    }
}
