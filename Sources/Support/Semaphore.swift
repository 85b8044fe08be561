import Glibc

/// A counting semaphore on POSIX `sem_t`: what asmrun used of `DispatchSemaphore`, without
/// linking libdispatch, whose initializer ran at every start (it read the CPU lists of /sys and
/// the thread's affinity before `main`).
package final class Semaphore: @unchecked Sendable {
    private let handle: UnsafeMutablePointer<sem_t>

    package init(value: UInt32 = 0) {
        handle = .allocate(capacity: 1)
        sem_init(handle, 0, value)
    }

    deinit {
        sem_destroy(handle)
        handle.deallocate()
    }

    package func signal() { sem_post(handle) }

    /// Waits for a `signal`; a signal handler's interruption (EINTR) waits again.
    package func wait() {
        while sem_wait(handle) != 0, errno == EINTR {}
    }
}
