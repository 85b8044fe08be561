import Foundation
import Glibc

/// One cache folder: `exe` and `sum`, the executable's SHA-256.
struct CacheEntry {
    let path: String

    /// The executable exists and matches its recorded digest.
    func isValid() -> Bool {
        guard let sum = FileManager.default.contents(atPath: path + "/sum"),
            let exe = FileManager.default.contents(atPath: path + "/exe")
        else { return false }
        return String(decoding: sum, as: UTF8.self) == SHA256.hex(exe)
    }

    /// Records the digest of `exe`.
    func seal() throws {
        guard let exe = FileManager.default.contents(atPath: path + "/exe") else {
            throw SourceError(path: path + "/exe", problem: "is missing", fix: "check the cache folder")
        }
        try AtomicFile.write(Array(SHA256.hex(exe).utf8), to: path + "/sum")
    }

    /// Moves a sealed staging folder to `entry`, replacing a stale or corrupt one.
    static func install(_ staging: String, at entry: String) {
        if rename(staging, entry) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else { return }
        if CacheEntry(path: entry).isValid() { return }
        let trash = staging + ".stale"
        if rename(entry, trash) == 0 {
            TemporaryDirectory.removeTree(trash)
            _ = rename(staging, entry)
        }
    }
}

/// Size accounting and least-recently-used eviction for a cache folder.
public struct CacheMaintenance: Sendable {
    /// The cache root.
    public let root: String

    /// Creates it.
    public init(root: String) { self.root = root }

    /// Entries with their size in bytes and last use.
    public func entries() -> [(path: String, bytes: Int, used: Double)] {
        let objects = root + "/objects"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? []
        return names.map { name in
            let path = objects + "/" + name
            var bytes = 0
            for file in ["exe", "sum"] {
                var info = stat()
                if stat(path + "/" + file, &info) == 0 { bytes += Int(info.st_size) }
            }
            var info = stat()
            let used = stat(path, &info) == 0 ? Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 : 0
            return (path, bytes, used)
        }
    }

    /// Evicts least-recently-used entries until the total is at most `limit` bytes.
    public func trim(toBytes limit: Int) {
        var all = entries().sorted { $0.used < $1.used }
        var total = all.reduce(0) { $0 + $1.bytes }
        while total > limit, !all.isEmpty {
            let oldest = all.removeFirst()
            TemporaryDirectory.removeTree(oldest.path)
            total -= oldest.bytes
        }
    }

    /// Removes every entry.
    public func clean() {
        TemporaryDirectory.removeTree(root + "/objects")
        TemporaryDirectory.removeTree(root + "/tmp")
    }
}
