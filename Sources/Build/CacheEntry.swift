import Glibc
import Support

/// One cache entry: a single file holding an object or executable and the warnings its build
/// printed (replayed on every hit), then a trailer with the payload's length, a SHA-256 of
/// both and a magic line. One file per entry means one inode to create, which is what a cold
/// run pays for.
struct CacheEntry {
    let path: String

    private static let magic = Array("\nasmrun-entry-2\n".utf8)
    private static let trailerLength = 16 + 64 + magic.count

    /// The payload and warnings, when the entry exists and matches its digest.
    func read() -> (payload: [UInt8], warnings: String)? {
        guard let bytes = try? Files.read(path), bytes.count >= Self.trailerLength else { return nil }
        let body = bytes.count - Self.trailerLength
        guard bytes.suffix(Self.magic.count).elementsEqual(Self.magic),
            let length = Int(String(decoding: bytes[body..<body + 16], as: UTF8.self), radix: 16), length <= body
        else { return nil }
        let content = Array(bytes[..<body])
        let recorded = String(decoding: bytes[body + 16..<body + 80], as: UTF8.self)
        guard recorded == SHA256.hex(content) else { return nil }
        return (Array(content[..<length]), String(decoding: content[length...], as: UTF8.self))
    }

    /// Stores `payload` with `warnings`: written to `staging`, then renamed into place.
    func install(_ payload: [UInt8], warnings: String, staging: String) -> Bool {
        let content = payload + Array(warnings.utf8)
        let length = String(payload.count, radix: 16)
        let trailer = Array((String(repeating: "0", count: 16 - length.count) + length + SHA256.hex(content)).utf8) + Self.magic
        guard FileCopy.write(content + trailer, to: staging, mode: 0o644), rename(staging, path) == 0 else {
            unlink(staging)
            return false
        }
        return true
    }
}
