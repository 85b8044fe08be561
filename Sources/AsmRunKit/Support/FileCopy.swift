import Glibc

/// Plain, fast file copies for scratch files (no fsync: losing them in a crash is harmless).
enum FileCopy {
    /// Creates or truncates `path` with `bytes`; executables are written behind the spawn gate.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        if mode & 0o111 != 0 {
            return SpawnGate.shared.writingExecutable { writeFile(bytes, to: path, mode: mode) }
        }
        return writeFile(bytes, to: path, mode: mode)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
