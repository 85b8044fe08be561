import Glibc

extension Files {
    /// Waits until `path` exists, at most `seconds` and only while `abandon` (a path in the same
    /// folder) does not: an inotify watch on the folder wakes the wait when something is created
    /// there, so nothing polls or sleeps. Whether `path` exists.
    package static func awaitCreation(_ path: String, seconds: Double, unlessCreated abandon: String? = nil) -> Bool {
        if exists(path) { return true }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let folder = PathName.directory(of: path)
        guard inotify_add_watch(fd, folder.isEmpty ? "." : folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else { return false }
        let deadline = monotonicSeconds() + seconds
        while !exists(path) {
            if let abandon, exists(abandon) { return exists(path) }
            let wait = deadline - monotonicSeconds()
            guard wait > 0 else { return false }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(wait * 1000) + 1) >= 0 || errno == EINTR else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = Glibc.read(fd, &buffer, buffer.count)
        }
        return true
    }
}
