import Glibc
import Support

/// Keeps writes of executable files and process spawns apart.
///
/// A child forked while another thread has an executable open for writing inherits that
/// descriptor until its own `exec` closes it; exec'ing the file in that window fails with
/// ETXTBSY ("Text file busy"). Spawns hold the gate shared (vfork returns only after the
/// child's exec), writers of executables hold it exclusively from `open` to `close`.
///
/// This is the one process-wide lock in asmrun, on purpose: the descriptor table it guards is
/// the process's, so every launcher in the process must share it, whatever run it belongs to.
/// Nothing holds it longer than one open-write-close or one spawn.
enum SpawnGate {
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    /// Runs a spawn; many may run at once.
    static func spawning<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` while no spawn is in progress.
    static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}

/// Writes executable files apart from spawns (see `SpawnGate`).
package enum ExecutableFile {
    /// Creates or truncates `path` with `bytes`, mode 0755, without fsync (scratch copies).
    package static func write(_ bytes: [UInt8], to path: String) -> Bool {
        SpawnGate.exclusive { FileCopy.write(bytes, to: path, mode: 0o755) }
    }

    /// Appends `bytes` to the executable at `path` and sets its access and modification times to
    /// `modified`, without fsync (a cache entry's trailer after the linker's output).
    package static func append(_ bytes: [UInt8], to path: String, modified: timespec) -> Bool {
        SpawnGate.exclusive {
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { return false }
            var times = [modified, modified]
            let written = writeAll(bytes, to: fd) && futimens(fd, &times) == 0
            return close(fd) == 0 && written
        }
    }

    /// Copies `source` (its first `length` bytes, when given: a cache entry) to `path`
    /// atomically, keeping it executable (`-o`, copies for runners).
    package static func copy(_ source: String, to path: String, length: Int? = nil) throws {
        var bytes = try AtomicFile.contents(of: source)
        if let length, length < bytes.count { bytes.removeLast(bytes.count - length) }
        try SpawnGate.exclusive { try AtomicFile.write(bytes, to: path, mode: 0o755, keepingMode: false) }
    }
}
