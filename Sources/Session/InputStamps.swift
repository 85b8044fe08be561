import Support

/// What run mode's watch judges an overflow by (events lost: `FileWatcher.Change.overflowed`):
/// each input's identity when the wait started (`FileSnapshot.identity`: device, inode, size,
/// change time). A file saved in place or replaced by a rename changes it; a folder program's
/// folder changes its times when a file is added to it or removed; an input that did not exist
/// and now does (an include named before it was written) changes from absent.
struct InputStamps: Sendable, Equatable {
    private var stamps: [String: String?] = [:]

    /// The stamps of `paths` now (an absent one as absent).
    init(_ paths: some Sequence<String>) {
        for path in paths { stamps[path] = FileSnapshot.identity(of: path) }
    }

    /// The paths whose stamp differs from the one taken now, sorted.
    func changed() -> [String] {
        stamps.filter { path, stamp in FileSnapshot.identity(of: path) != stamp }.keys.sorted()
    }
}
