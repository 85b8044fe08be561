import Support
import Synchronization

/// Writes cache entries that are copies (the objects of a program of several sources, an
/// executable whose key a compile made only then) on a thread of its own, so the worker that
/// built a program goes on to run it while the entry is hashed and written. An executable whose
/// key was known before its build needs none: it is linked into the cache and sealed there
/// (`CacheEntry.seal`). `finish` waits for everything queued; where no thread can be started,
/// entries are written at once.
final class EntryWriter: Sendable {
    private struct Job {
        var entry: CacheEntry
        var payload: [UInt8]
        var warnings: String
        var inputs: String
        var staging: String
        var executable: Bool
    }

    private struct State {
        var queue: [Job] = []
        var writing = false
        var started = false
        var inline = false
        var stopping = false
    }

    private let state: Mutex<State>
    private let available = Semaphore()
    private let idle = Semaphore()
    /// The bytes of the entries written (the cache's size ledger gets them at the end).
    let written = Atomic<Int>(0)

    /// A writer with a thread of its own (started on first use), or, `inline`, one that writes
    /// each entry at once: a single program's one entry is not worth a thread.
    init(inline: Bool = false) {
        state = Mutex(State(started: inline, inline: inline))
    }

    /// Queues an entry (started on first use).
    func write(_ entry: CacheEntry, _ payload: [UInt8], warnings: String, inputs: String, staging: String, executable: Bool) {
        let job = Job(entry: entry, payload: payload, warnings: warnings, inputs: inputs, staging: staging, executable: executable)
        let queued = state.withLock { state -> Bool in
            if !state.started {
                state.started = true
                state.inline = !DetachedThread.start(stackSize: 1 << 20, { [self] in work() })
            }
            guard !state.inline else { return false }
            state.queue.append(job)
            return true
        }
        if queued { available.signal() } else { install(job) }
    }

    /// Returns once every queued entry is written; the thread then ends (a later entry is
    /// written at once).
    func finish() {
        while state.withLock({ !$0.inline && $0.started && (!$0.queue.isEmpty || $0.writing) }) { idle.wait() }
        let running = state.withLock { state -> Bool in
            defer {
                state.inline = true
                state.started = true
            }
            return state.started && !state.inline
        }
        if running { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let next = state.withLock { state -> Job?? in
                guard !state.queue.isEmpty else { return state.inline ? .some(nil) : nil }
                state.writing = true
                return state.queue.removeFirst()
            }
            guard let next else { continue }
            guard let job = next else { return }
            install(job)
            state.withLock { $0.writing = false }
            idle.signal()
        }
    }

    private func install(_ job: Job) {
        if job.entry.install(job.payload, warnings: job.warnings, inputs: job.inputs, staging: job.staging, executable: job.executable) {
            written.add(CacheEntry.size(job.payload, warnings: job.warnings, inputs: job.inputs), ordering: .relaxed)
        }
    }
}
