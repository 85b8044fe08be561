import Processes
import Support
import Synchronization
import Testing

@testable import Session

/// The watch's wiring of a second interrupt (`RunWatch.onInterrupt`): the first ends the watch,
/// one that comes while it still ends is handed to `abandon` (`Context.abandon`, the front end's
/// exit 130 with the terminal put back). No real signal: the test process's interrupts reach
/// every run of every test in it.
struct WatchAbandonTests {
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test func aSecondInterruptAbandonsTheWatch() throws {
        let stopped = Flag()
        let abandoned = Count()
        let handle = RunWatch.onInterrupt(stopped: stopped, watcher: try #require(FileWatcher())) {
            abandoned.value.add(1, ordering: .relaxed)
        }
        handle(1)
        #expect(stopped.isSet && abandoned.value.load(ordering: .relaxed) == 0, "the first interrupt only ends the watch")
        handle(2)
        #expect(abandoned.value.load(ordering: .relaxed) == 1)
    }
}
