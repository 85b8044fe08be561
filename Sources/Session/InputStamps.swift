import Glibc

/// What run mode's watch judges an overflow by (events lost: `FileWatcher.Change.overflowed`):
/// each input's device, inode, size, modification and change time when the wait started. A
/// file saved in place or replaced by a rename changes one of them; a folder program's folder
/// changes its times when a file is added to it or removed; an input that did not exist and
/// now does (an include named before it was written) changes from absent.
struct InputStamps: Sendable, Equatable {
    private var stamps: [String: [Int]] = [:]

    /// The stamps of `paths` now (an absent one as absent).
    init(_ paths: some Sequence<String>) {
        for path in paths { stamps[path] = Self.stamp(path) }
    }

    /// The paths whose stamp differs from the one taken now, sorted.
    func changed() -> [String] {
        stamps.filter { path, stamp in Self.stamp(path) != stamp }.keys.sorted()
    }

    /// Empty when the path is absent (or unreadable).
    private static func stamp(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [
            Int(status.st_dev), Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec,
            status.st_ctim.tv_sec, status.st_ctim.tv_nsec,
        ]
    }
}
