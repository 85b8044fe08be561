import Glibc

/// Replaces files by writing a sibling temporary file and renaming it over the target, so a
/// reader (or a crash) sees the old content or the new, never a truncated mix.
///
/// - A symlink is written through: its target is replaced, the link stays a link.
/// - A device, pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO) is written to, never replaced:
///   renaming over `/dev/null` as root would leave a regular file where every program's output
///   is thrown away.
/// - The replaced file keeps its permissions (and, for root, its owner).
/// - A file or folder without write permission is refused, even for root: `chmod a-w` means
///   "do not change this" to asmrun too.
/// - The temporary file, `.NAME.asmrun-XXXXXX`, is locked (`flock`) from before it has content
///   until it is renamed; one left by a process that died is unlocked, which is how
///   `removeAbandoned` tells it from one being written.
package enum AtomicFile {
    /// Writes `bytes` to `path` atomically. A new file gets `mode`; an existing one keeps its
    /// own unless `keepingMode` is false. `durable: false` leaves out the two fsyncs, for files
    /// asmrun can do without after a power cut (a crash may then leave the old content, or an
    /// empty or cut file, never another mix): the cache's tag, size ledger and timings.
    package static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, keepingMode: Bool = true, durable: Bool = true
    ) throws {
        var followed = stat()
        if stat(path, &followed) == 0, followed.st_mode & S_IFMT != S_IFREG {
            try writeInPlace(bytes, to: path, kind: followed.st_mode & S_IFMT)
            return
        }
        let target = try resolve(path)
        let directory = PathName.directory(of: target)
        let folder = directory.isEmpty ? "." : directory
        var existing = stat()
        let exists = stat(target, &existing) == 0
        try checkWritable(path, folder: folder, existing: exists ? existing : nil)
        let (fd, temporary) = try createLockedSibling(of: path, in: folder, name: PathName.lastComponent(of: target))
        defer { close(fd) }
        var ok = writeAll(bytes, to: fd)
        ok = ok && fchmod(fd, exists && keepingMode ? existing.st_mode & 0o7777 : mode) == 0
        if ok && exists && geteuid() == 0 && (existing.st_uid != 0 || existing.st_gid != 0) {
            _ = fchown(fd, existing.st_uid, existing.st_gid)
        }
        ok = ok && (!durable || fsync(fd) == 0)
        guard ok, rename(temporary, target) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw failure(path, "cannot be written (\(reason))")
        }
        if durable { syncDirectory(folder) }
    }

    /// Writes to what `path` names without replacing it: a device or a pipe (a pipe without a
    /// reader is refused, not waited for); a folder is refused.
    private static func writeInPlace(_ bytes: [UInt8], to path: String, kind: mode_t) throws {
        guard kind != S_IFDIR else { throw failure(path, "is a folder") }
        let fd = open(path, O_WRONLY | O_CLOEXEC | (kind == S_IFIFO ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw failure(path, "cannot be written (\(errorText()))") }
        defer { close(fd) }
        if kind == S_IFIFO { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        guard writeAll(bytes, to: fd) else { throw failure(path, "cannot be written (\(errorText()))") }
    }

    /// The file a write to `path` replaces: `path`, or the end of the chain of symlinks it starts.
    package static func resolve(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = buffer.withUnsafeMutableBytes { readlink(current, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
            guard length > 0 else { break }
            let link = String(decoding: buffer.prefix(length), as: UTF8.self)
            let parent = PathName.directory(of: current)
            current = link.hasPrefix("/") || parent.isEmpty ? link : parent + "/" + link
        }
        throw failure(path, "is a chain of symbolic links that does not end (\(errorText(ELOOP)))")
    }

    private static func checkWritable(_ path: String, folder: String, existing: stat?) throws {
        if let existing, existing.st_mode & 0o222 == 0 || access(path, W_OK) != 0 {
            throw FileError(
                path: path, problem: "is read-only, so asmrun leaves it as it is",
                fix: "make it writable (chmod u+w) to let asmrun replace it")
        }
        var info = stat()
        if stat(folder, &info) == 0, info.st_mode & 0o222 == 0 || access(folder, W_OK) != 0 {
            throw FileError(
                path: path, problem: "cannot be written: its folder \(folder.displayEscaped) is read-only",
                fix: "make the folder writable (chmod u+w)")
        }
    }

    /// `mkostemp(3)` with `O_CLOEXEC` (which Swift's Glibc module does not export), then an
    /// exclusive `flock` before anything is written: a new file `.NAME.asmrun-XXXXXX` beside the
    /// target, never inherited by a child spawned meanwhile. A sweeper that got the name between
    /// its creation and the lock has removed it, which the identity check notices.
    private static func createLockedSibling(of path: String, in directory: String, name: String) throws -> (Int32, String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            // Six letters from one random number: one getrandom(2) per name, not one per letter.
            var bits = UInt64.random(in: .min ... .max)
            let suffix = String(
                (0..<6).map { _ in
                    defer { bits /= UInt64(letters.count) }
                    return letters[Int(bits % UInt64(letters.count))]
                })
            let candidate = "\(directory)/.\(name).asmrun-\(suffix)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno != EEXIST { break }
                continue
            }
            var opened = stat()
            var named = stat()
            if flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &opened) == 0, stat(candidate, &named) == 0,
                opened.st_ino == named.st_ino, opened.st_dev == named.st_dev
            {
                return (fd, candidate)
            }
            close(fd)
        }
        throw failure(path, "cannot create a temporary file beside it (\(errorText()))")
    }

    /// Makes the rename itself durable; a folder that cannot be opened only loses that.
    private static func syncDirectory(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The bytes of `source`, for copying a file atomically.
    package static func contents(of source: String) throws -> [UInt8] {
        do {
            return try Files.read(source)
        } catch {
            throw FileError(path: source, problem: error.problem, fix: "check that it exists")
        }
    }

    private static func failure(_ path: String, _ problem: String) -> FileError {
        FileError(path: path, problem: problem, fix: "check that its folder exists and is writable")
    }
}

/// `strerror(errno)` as a string.
package func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
