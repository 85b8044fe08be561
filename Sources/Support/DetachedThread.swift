import Dispatch
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
    private let ready = DispatchSemaphore(value: 0)

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
