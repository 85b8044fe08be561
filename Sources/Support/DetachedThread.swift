import Glibc
import Synchronization

/// A detached POSIX thread running a closure (the suite's workers, the interrupt reader):
/// Foundation's `Thread` without Foundation.
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread with `stackSize` bytes of stack; false when the system
    /// refuses one (the caller then does the work another way).
    @discardableResult
    package static func start(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        if started != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return started == 0
    }
}

/// A value made on a thread of its own while the caller goes on (the run's containment, set up
/// while the suite loads); made on the caller's thread when no thread can be started.
package final class Pending<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)
    private let ready = Semaphore()

    package init(_ make: @escaping @Sendable () -> Value) {
        if !DetachedThread.start({ [self] in finish(make) }) { finish(make) }
    }

    private func finish(_ make: @Sendable () -> Value) {
        let value = make()
        made.withLock { $0 = value }
        ready.signal()
    }

    /// The value, waiting for it.
    package var value: Value {
        ready.wait()
        ready.signal()
        return made.withLock { $0! }
    }
}

extension Array where Element: Sendable {
    /// `transform` of every element, in order, worked out on `threads` threads (this one and
    /// `threads - 1` detached ones, which take elements one at a time from a shared counter).
    package func concurrentMap<T: Sendable>(threads: Int, _ transform: @escaping @Sendable (Element) -> T) -> [T] {
        let helpers = Swift.min(threads, count) - 1
        guard helpers > 0 else { return map(transform) }
        let results = Results<T>(count: count)
        let next = Atomic<Int>(0)
        let finished = Semaphore()
        let items = self
        let work: @Sendable () -> Void = {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < items.count else { return }
                results.set(index, transform(items[index]))
            }
        }
        var started = 0
        for _ in 0..<helpers
        where DetachedThread.start({
            work(); finished.signal()
        }) { started += 1 }
        work()
        for _ in 0..<started { finished.wait() }
        return results.values
    }
}

/// Slots written by one thread each, read once every writer is done.
private final class Results<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = Mutex<Void>(())

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) { lock.withLock { _ in slots[index] = value } }

    var values: [T] { lock.withLock { _ in slots.map { $0! } } }
}
