import Glibc

extension Files {
    /// `path` with every symbolic link, `.` and `..` resolved (`realpath(3)`); `nil` when some
    /// part of it does not exist or cannot be searched.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the real path `path` is `folder` (a real path too) or lies below it.
    package static func isWithin(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }
}

extension Files {
    /// What the symbolic link `path` points at, as written in it; `nil` when it is no link.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
