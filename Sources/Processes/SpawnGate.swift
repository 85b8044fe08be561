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
/// Nothing holds it longer than one open-write-close (a seal also reads the executable's first
/// 64 KiB on that descriptor) or one spawn.
package enum SpawnGate {
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    /// Runs a spawn; many may run at once.
    package static func spawning<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` while no spawn is in progress.
    package static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
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

    /// Appends to the executable at `path` what `tail` makes of its length and sets its access
    /// and modification times to the stamp `tail` gives, without fsync (a cache entry's trailer
    /// after the linker's output); returns that length and the file's first `head` bytes, read
    /// on the same descriptor. `nil` when it could not be read or written.
    package static func seal(
        _ path: String, head: Int, tail: (Int) -> (bytes: [UInt8], stamp: timespec)
    ) -> (length: Int, head: [UInt8])? {
        SpawnGate.exclusive {
            let fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            var info = stat()
            var sealed: (length: Int, head: [UInt8])?
            if fstat(fd, &info) == 0, let bytes = readStart(of: fd, count: min(Int(info.st_size), max(0, head))) {
                let (text, stamp) = tail(Int(info.st_size))
                var times = [stamp, stamp]
                if writeAll(text, to: fd) && futimens(fd, &times) == 0 { sealed = (Int(info.st_size), bytes) }
            }
            return close(fd) == 0 ? sealed : nil
        }
    }

    /// The first `count` bytes of the file `fd` is open on (`pread`: the offset stays).
    private static func readStart(of fd: Int32, count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, got in
            got = 0
            while got < count {
                let read = pread(fd, buffer.baseAddress! + got, count - got, off_t(got))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 {
                    failed = true
                    break
                }
                got += read
            }
        }
        return failed ? nil : bytes
    }

    /// Copies `source` (its first `length` bytes, when given: a cache entry) to `path`
    /// atomically, keeping it executable (`-o`, copies for runners).
    package static func copy(_ source: String, to path: String, length: Int? = nil) throws {
        var bytes = try AtomicFile.contents(of: source)
        if let length, length < bytes.count { bytes.removeLast(bytes.count - length) }
        try SpawnGate.exclusive { try AtomicFile.write(bytes, to: path, mode: 0o755, keepingMode: false) }
    }
}
