import Glibc
import Support

/// Size accounting and least-recently-used eviction for a cache folder.
package struct CacheMaintenance: Sendable {
    package let root: String

    package init(root: String) { self.root = root }

    /// Entries with their size in bytes and last use (their access time, set on every hit).
    package func entries() -> [(path: String, bytes: Int, used: Double)] {
        let objects = root + "/objects"
        let names = (try? Files.list(objects)) ?? []
        return names.map { name in
            let path = objects + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { return (path, 0, 0) }
            return (path, Int(info.st_size), Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9)
        }
    }

    /// Evicts least-recently-used entries until the total is at most `limit` bytes.
    package func trim(toBytes limit: Int) {
        var all = entries().sorted { $0.used < $1.used }
        var total = all.reduce(0) { $0 + $1.bytes }
        while total > limit, !all.isEmpty {
            let oldest = all.removeFirst()
            unlink(oldest.path)
            total -= oldest.bytes
        }
    }

    package func clean() {
        Files.removeTree(root + "/objects")
        Files.removeTree(root + "/tmp")
        unlink(root + "/timings")
    }
}
