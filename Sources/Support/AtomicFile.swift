import Glibc

/// Replaces files by writing a sibling temporary file and renaming it over the target, so a
/// reader (or a crash) sees the old content or the new, never a truncated mix.
package enum AtomicFile {
    /// Writes `bytes` to `path` atomically with `mode` permissions. Executables are written
    /// through `Sandbox`'s `ExecutableFile`, which keeps the write apart from spawns.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        let directory = PathName.directory(of: path)
        let name = PathName.lastComponent(of: path)
        let (fd, temporary) = try createSibling(of: path, in: directory.isEmpty ? "." : directory, name: name)
        var ok = writeAll(bytes, to: fd)
        ok = ok && fchmod(fd, mode) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw failure(path, "cannot be written (\(reason))")
        }
    }

    /// `mkostemp(3)` with `O_CLOEXEC`, which Swift's Glibc module does not export: a new file
    /// `.NAME.asmrun-XXXXXX` beside the target, never inherited by a child spawned meanwhile.
    private static func createSibling(of path: String, in directory: String, name: String) throws -> (Int32, String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters.randomElement()! })
            let candidate = "\(directory)/.\(name).asmrun-\(suffix)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, candidate) }
            if errno != EEXIST { break }
        }
        throw failure(path, "cannot create a temporary file beside it (\(errorText()))")
    }

    /// The bytes of `source`, for copying a file atomically.
    package static func contents(of source: String) throws -> [UInt8] {
        do {
            return try Files.read(source)
        } catch {
            throw FileError(path: source, problem: error.problem, fix: "check that it exists", category: .environment)
        }
    }

    private static func failure(_ path: String, _ problem: String) -> FileError {
        FileError(path: path, problem: problem, fix: "check that its folder exists and is writable", category: .environment)
    }
}

/// `strerror(errno)` as a string.
package func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
