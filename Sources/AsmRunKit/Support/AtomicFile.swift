import Foundation
import Glibc

/// Replaces files by writing a sibling temporary file and renaming it over the target, so a
/// reader (or a crash) sees the old content or the new, never a truncated mix.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically with `mode` permissions.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        if mode & 0o111 != 0 {
            return try SpawnGate.shared.writingExecutable { try writeFile(bytes, to: path, mode: mode) }
        }
        try writeFile(bytes, to: path, mode: mode)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(name).asmrun-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path, "cannot create a temporary file beside it") }
        let temporary = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        var ok = true
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                ok = false
                break
            }
            offset += written
        }
        ok = ok && fchmod(fd, mode) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw failure(path, "cannot be written (\(reason))")
        }
    }

    /// Copies the file at `source` to `path` atomically, keeping it executable.
    public static func copy(_ source: String, to path: String) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw failure(source, "cannot be read")
        }
        try write([UInt8](data), to: path, mode: 0o755)
    }

    private static func failure(_ path: String, _ problem: String) -> SourceError {
        SourceError(path: path, problem: problem, fix: "check that its folder exists and is writable")
    }
}
