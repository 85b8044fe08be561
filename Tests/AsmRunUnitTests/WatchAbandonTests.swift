import Glibc
import Synchronization
import Testing

@testable import Processes
@testable import Session
@testable import Support

/// The watch's wiring of a second interrupt: `RunWatch` hands it to `abandon` (`Context.abandon`,
/// the front end's exit 130 with the terminal put back) once, and not the first. Real signals,
/// to this process: no other test of this target listens for them (none starts a session).
struct WatchAbandonTests {
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test func aSecondInterruptAbandonsTheWatchOnce() throws {
        let made = try TemporaryDirectory(prefix: "abandon")
        defer { made.remove() }
        try AtomicFile.write(Array("; waits\n".utf8), to: made.path + "/wait.asm")
        let abandoned = Count()
        let watch = try RunWatch(children: ChildRegistry(), sources: [made.path + "/wait.asm"]) {
            abandoned.value.add(1, ordering: .relaxed)
        }
        defer { watch.stop() }
        // Subscribed after the watch: each interrupt reaches it once the watch's handler returned
        // (one thread hands an interrupt to every monitor in turn).
        let handled = Semaphore()
        let after = InterruptMonitor(children: ChildRegistry()) { _ in handled.signal() }
        defer { _ = after.stop() }
        // A delivery that never comes fails the test after 30 s rather than hanging it.
        DetachedThread.start {
            _ = poll(nil, 0, 30_000)
            for _ in 0..<2 { handled.signal() }
        }
        kill(getpid(), SIGINT)
        handled.wait()
        #expect(watch.interrupted && abandoned.value.load(ordering: .relaxed) == 0, "the first interrupt only ends the watch")
        kill(getpid(), SIGTERM)
        handled.wait()
        #expect(abandoned.value.load(ordering: .relaxed) == 1)
    }
}
