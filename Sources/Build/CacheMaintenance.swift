import Glibc
import Support

/// Size accounting, least-recently-used eviction and cleaning for a cache folder; only names
/// asmrun made are counted or removed (see `CacheFolder`).
package struct CacheMaintenance: Sendable {
    package let root: String

    package init(root: String) { self.root = root }

    package init(_ folder: CacheFolder) { root = folder.root }

    /// Entries with their size in bytes and last use (their access time, set on every hit).
    package func entries() -> [(path: String, bytes: Int, used: Double)] {
        let objects = root + "/objects"
        let names = ((try? Files.list(objects)) ?? []).filter(CacheFolder.isEntryName)
        return names.map { name in
            let path = objects + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { return (path, 0, 0) }
            return (path, Int(info.st_size), Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9)
        }
    }

    /// Evicts least-recently-used entries until the total is at most `limit` bytes; returns the
    /// total left.
    @discardableResult
    func trim(toBytes limit: Int) -> Int {
        var all = entries().sorted { $0.used < $1.used }
        var total = all.reduce(0) { $0 + $1.bytes }
        while total > limit, !all.isEmpty {
            let oldest = all.removeFirst()
            unlink(oldest.path)
            total -= oldest.bytes
        }
        return total
    }

    /// The file holding what the entries add up to, as the runs that stored them counted.
    static let ledgerName = "size"

    /// A run stored `bytes` more: the ledger says whether the cache may now be past `limit`,
    /// and only then are the entries listed and the least recently used evicted (listing and
    /// stating 20,000 entries took 60 ms, for every run that stored anything). Runs storing at
    /// once may lose each other's additions, so the ledger can fall behind; a missing or
    /// unreadable one means a full count.
    func account(stored bytes: Int, limit: Int, fromEmpty: Bool = false) {
        let ledger = root + "/" + Self.ledgerName
        // A cache this run made has no ledger yet: it holds what this run stored (and what runs
        // beside it stored, which wrote the ledger first), so there is nothing to count.
        let recorded =
            (try? Files.read(ledger)).flatMap { Int(String(decoding: $0, as: UTF8.self).trimmingWhitespace()) } ?? (fromEmpty ? 0 : nil)
        if let recorded, recorded >= 0, recorded <= limit - bytes {
            try? AtomicFile.write(Array("\(recorded + bytes)\n".utf8), to: ledger, durable: false)
            return
        }
        let total = trim(toBytes: limit)
        try? AtomicFile.write(Array("\(total)\n".utf8), to: ledger, durable: false)
    }

    /// Removes every entry, entry being stored and the timings; returns how many entries went.
    @discardableResult
    package func clean() -> Int {
        let removed = entries().filter { unlink($0.path) == 0 }.count
        for name in (try? Files.list(root + "/tmp")) ?? [] where CacheFolder.isStagingName(name) {
            unlink(root + "/tmp/" + name)
        }
        unlink(root + "/timings")
        unlink(root + "/" + Self.ledgerName)
        return removed
    }

    /// Removes entries a dead asmrun was storing when it died (its pid is in the name); an entry
    /// of a live one is never touched.
    func removeAbandonedStaging() {
        for name in (try? Files.list(root + "/tmp")) ?? [] {
            guard let owner = CacheFolder.stagingOwner(name), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            unlink(root + "/tmp/" + name)
        }
    }
}
