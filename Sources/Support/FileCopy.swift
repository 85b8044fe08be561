import Glibc

/// Plain, fast file writes for scratch files (no fsync: losing them in a crash is harmless).
package enum FileCopy {
    /// Creates or truncates `path` with `bytes`; false when any step fails.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(bytes, to: fd)
    }
}

/// Writes every byte to `fd`, retrying short and interrupted writes; false when the
/// descriptor refuses (a closed pipe, a full disk).
@discardableResult
package func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
    }
    return true
}
