import Glibc
import Support

/// One cache entry: a single file holding the executable, then a trailer with its SHA-256 and a
/// magic line. One file per entry means one inode to create, which is what a cold run pays for.
struct CacheEntry {
    let path: String

    private static let magic = Array("\nasmrun-entry-1\n".utf8)
    private static let trailerLength = 64 + magic.count

    /// The executable's bytes, when the entry exists and matches its digest.
    func read() -> [UInt8]? {
        guard let bytes = try? Files.read(path), bytes.count > Self.trailerLength else { return nil }
        let split = bytes.count - Self.trailerLength
        guard bytes.suffix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        let executable = Array(bytes[..<split])
        let recorded = String(decoding: bytes[split..<split + 64], as: UTF8.self)
        return recorded == SHA256.hex(executable) ? executable : nil
    }

    /// Stores the executable at `executable`: written to `staging`, then renamed into place.
    func install(executable: String, staging: String) -> Bool {
        guard let bytes = try? Files.read(executable) else { return false }
        let content = bytes + Array(SHA256.hex(bytes).utf8) + Self.magic
        guard FileCopy.write(content, to: staging, mode: 0o644), rename(staging, path) == 0 else {
            unlink(staging)
            return false
        }
        return true
    }
}
