import Glibc

/// An exclusive `flock` on a folder while files in it are read, merged and replaced, so asmrun
/// processes (and threads) rewriting the same file take turns instead of losing each other's
/// changes. The lock is the folder's, not the file's, because a replaced file is a new inode
/// and a file that does not exist yet has none; the kernel drops it when its holder dies.
package enum FolderLock {
    /// Runs `body` holding the lock on `folder`, waiting at most `seconds` for it.
    package static func withLock<T>(_ folder: String, waiting seconds: Double = 30, _ body: () throws -> T) throws -> T {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileError(
                path: folder, problem: "cannot be locked for writing (\(errorText()))", fix: "check that it exists and is readable")
        }
        defer { close(fd) }
        let deadline = monotonicSeconds() + seconds
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline else {
                throw FileError(
                    path: folder, problem: "is being rewritten by another asmrun that has held its lock for \(Int(seconds)) s",
                    fix: "let that run finish, or end it")
            }
            // Holders keep it for one read-merge-write: a few milliseconds.
            _ = poll(nil, 0, 2)
        }
        return try body()
    }
}
