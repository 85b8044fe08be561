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
