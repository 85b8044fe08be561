import Glibc

extension AtomicFile {
    /// Whether `name` is one of `write`'s temporary files: `.NAME.asmrun-XXXXXX`.
    package static func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let marker = Array(".asmrun-".utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count > 1 + marker.count + 6 else { return false }
        let suffix = bytes.suffix(6)
        let markerStart = bytes.count - 6 - marker.count
        return bytes[markerStart..<bytes.count - 6].elementsEqual(marker)
            && suffix.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) }
    }

    /// Removes temporary files that a process writing them left when it died: among `names` in
    /// `directory` (all of its entries when `nil`), those that are `write`'s and unlocked. One being
    /// written is locked by its writer and stays. Returns how many were removed.
    @discardableResult
    package static func removeAbandoned(in directory: String, names: [String]? = nil) -> Int {
        var removed = 0
        for name in names ?? ((try? Files.list(directory)) ?? []) where isTemporaryName(name) {
            let path = directory + "/" + name
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var opened = stat()
            var named = stat()
            guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0,
                lstat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Removes abandoned temporary files of `path` itself (`.NAME.asmrun-XXXXXX` beside it).
    @discardableResult
    package static func removeAbandoned(besides path: String) -> Int {
        let target = (try? resolve(path)) ?? path
        let parent = PathName.directory(of: target)
        let prefix = "." + PathName.lastComponent(of: target) + ".asmrun-"
        let folder = parent.isEmpty ? "." : parent
        return removeAbandoned(in: folder, names: ((try? Files.list(folder)) ?? []).filter { $0.hasPrefix(prefix) })
    }
}
