import Foundation
import Glibc

/// One cache entry: a single file holding the executable, then a trailer with its SHA-256 and a
/// magic line. One file per entry means one inode to create, which is what a cold run pays for.
struct CacheEntry {
    let path: String

    private static let magic = Array("\nasmrun-entry-1\n".utf8)
    private static let trailerLength = 64 + magic.count

    /// The executable's bytes, when the entry exists and matches its digest.
    func read() -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path), data.count > Self.trailerLength else { return nil }
        let bytes = [UInt8](data)
        let split = bytes.count - Self.trailerLength
        guard bytes.suffix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        let executable = Array(bytes[..<split])
        let recorded = String(decoding: bytes[split..<split + 64], as: UTF8.self)
        return recorded == SHA256.hex(executable) ? executable : nil
    }

    /// Stores the executable at `executable`: written to `staging`, then renamed into place.
    func install(executable: String, staging: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: executable) else { return false }
        let bytes = [UInt8](data)
        let content = bytes + Array(SHA256.hex(bytes).utf8) + Self.magic
        guard FileCopy.write(content, to: staging, mode: 0o644), rename(staging, path) == 0 else {
            unlink(staging)
            return false
        }
        return true
    }
}

/// Plain, fast file copies for scratch files (no fsync: losing them in a crash is harmless).
enum FileCopy {
    /// Creates or truncates `path` with `bytes`; executables are written behind the spawn gate.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        if mode & 0o111 != 0 {
            return SpawnGate.shared.writingExecutable { writeFile(bytes, to: path, mode: mode) }
        }
        return writeFile(bytes, to: path, mode: mode)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, mode: mode_t) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// Size accounting and least-recently-used eviction for a cache folder.
public struct CacheMaintenance: Sendable {
    /// The cache root.
    public let root: String

    /// Creates it.
    public init(root: String) { self.root = root }

    /// Entries with their size in bytes and last use (the executable's modification time,
    /// touched on every hit).
    public func entries() -> [(path: String, bytes: Int, used: Double)] {
        let objects = root + "/objects"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? []
        return names.map { name in
            let path = objects + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { return (path, 0, 0) }
            return (path, Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }

    /// Evicts least-recently-used entries until the total is at most `limit` bytes.
    public func trim(toBytes limit: Int) {
        var all = entries().sorted { $0.used < $1.used }
        var total = all.reduce(0) { $0 + $1.bytes }
        while total > limit, !all.isEmpty {
            let oldest = all.removeFirst()
            unlink(oldest.path)
            total -= oldest.bytes
        }
    }

    /// Removes every entry.
    public func clean() {
        TemporaryDirectory.removeTree(root + "/objects")
        TemporaryDirectory.removeTree(root + "/tmp")
    }
}
