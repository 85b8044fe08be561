import Glibc

/// Keeps writes of executable files and process spawns apart.
///
/// A child forked while another thread has an executable open for writing inherits that
/// descriptor until its own `exec` closes it; exec'ing the file in that window fails with
/// ETXTBSY ("Text file busy"). Spawns hold the gate shared (vfork returns only after the
/// child's exec), writers of executables hold it exclusively from `open` to `close`. The orphan
/// scan holds it too: a spawned child is registered before the gate opens again.
final class SpawnGate: @unchecked Sendable {
    static let shared = SpawnGate()

    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    private init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    /// Runs a spawn; many may run at once.
    func spawning<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs the open-write-close of an executable file while no spawn is in progress.
    func writingExecutable<T>(_ body: () throws -> T) rethrows -> T { try exclusive(body) }

    /// Runs `body` while no spawn is in progress.
    func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
