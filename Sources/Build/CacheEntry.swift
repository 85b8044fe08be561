import Glibc
import Processes
import Support

/// One cache entry: a single file holding an object or executable, the warnings its build
/// printed (replayed on every hit) and the inputs its key does not name (`BuildInput`, checked on
/// every hit), then a trailer: the payload's and the warnings' lengths, a stamp, a checksum of it
/// all (`Checksum`) and a magic line. One file per entry means one inode to create, which is what a cold
/// run pays for.
///
/// The checksum is checked when an entry was changed since asmrun wrote it, not on every use: the
/// entry's modification time is set to the stamp when it is written, and a hit only moves its
/// access time (the cache's least-recently-used order), so any other write shows as a changed
/// modification time. An executable sealed where the linker wrote it carries no checksum
/// (`unchecked`), so that its bytes need not be read back: changed, it is rebuilt. Whoever can
/// write an entry can restore its modification time too, so a checksum only ever told an
/// accident from an intact entry whose time moved.
struct CacheEntry {
    let path: String

    private static let magic = Array("\nasmrun-entry-5\n".utf8)
    static let trailerLength = 16 + 16 + 16 + 16 + magic.count

    /// The trailer's checksum field of a sealed executable: never a checksum (not hex).
    private static let unchecked = String(repeating: "-", count: 16)

    /// The bytes an entry with `payload`, `warnings` and `inputs` takes.
    static func size(_ payload: [UInt8], warnings: String, inputs: String = "") -> Int {
        size(length: payload.count, warnings: warnings, inputs: inputs)
    }

    /// The bytes an entry of a `length`-byte payload, `warnings` and `inputs` takes.
    static func size(length: Int, warnings: String, inputs: String = "") -> Int {
        length + warnings.utf8.count + inputs.utf8.count + trailerLength
    }

    /// The payload, warnings and inputs record, when the entry exists and is intact; `runnable`
    /// when it was stored executable, to be run where it is.
    func read() -> (payload: [UInt8], warnings: String, inputs: String, runnable: Bool, accessed: timespec)? {
        guard let (bytes, status) = try? Files.readWithStatus(path, growing: false), bytes.count >= Self.trailerLength else {
            return nil
        }
        let body = bytes.count - Self.trailerLength
        guard bytes.suffix(Self.magic.count).elementsEqual(Self.magic),
            let length = Self.hex(bytes[body..<body + 16]), let warnings = Self.hex(bytes[body + 16..<body + 32]),
            length <= body, warnings <= body - length, let stamp = Self.hex(bytes[body + 32..<body + 48])
        else { return nil }
        let content = bytes[..<body]
        let untouched = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec) == stamp
        if !untouched {
            let sum = bytes.withUnsafeBytes { Checksum.hex(UnsafeRawBufferPointer(rebasing: $0[..<body])) }
            guard String(decoding: bytes[body + 48..<body + 64], as: UTF8.self) == sum else { return nil }
        }
        return (
            Array(content[..<length]), String(decoding: content[length..<length + warnings], as: UTF8.self),
            String(decoding: content[(length + warnings)...], as: UTF8.self), status.st_mode & 0o100 != 0, status.st_atim
        )
    }

    /// Stores `payload` with `warnings` and `inputs`: written to `staging`, stamped, then renamed
    /// into place. An executable's entry is made runnable: the kernel loads an ELF file by its
    /// headers, so the trailer after it does no harm, and a hit runs the entry itself instead of
    /// a copy.
    func install(_ payload: [UInt8], warnings: String, inputs: String = "", staging: String, executable: Bool) -> Bool {
        let text = Array(warnings.utf8)
        let record = Array(inputs.utf8)
        let sum = (payload + text + record).withUnsafeBytes { Checksum.hex($0) }
        let (tail, now) = Self.tail(length: payload.count, warnings: text, inputs: record, sum: sum)
        let fd = open(staging, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard fd >= 0 else { return false }
        var times = [now, now]
        let written = writeAll(payload + tail, to: fd) && futimens(fd, &times) == 0
        close(fd)
        return place(staging, written: written)
    }

    /// Makes the executable the linker wrote to `staging` this entry: the warnings and an
    /// unchecked trailer appended, stamped and renamed into place, its bytes neither copied nor
    /// read but for the first `head` (its ELF headers). Appended apart from spawns
    /// (`ExecutableFile.seal`), so that no child holds it open for writing when a case runs it.
    /// Returns its length and those bytes; `nil` (the staging file left as it is) when it could
    /// not be sealed.
    func seal(_ staging: String, warnings: String, inputs: String = "", head: Int) -> (length: Int, head: [UInt8])? {
        let text = Array(warnings.utf8)
        let record = Array(inputs.utf8)
        guard
            let sealed = ExecutableFile.seal(
                staging, head: head, tail: { Self.tail(length: $0, warnings: text, inputs: record, sum: Self.unchecked) }),
            rename(staging, path) == 0
        else { return nil }
        return sealed
    }

    /// What follows a payload of `length` bytes (the warnings, the inputs, then the trailer), and
    /// the stamp in it.
    private static func tail(length: Int, warnings text: [UInt8], inputs: [UInt8], sum: String) -> (bytes: [UInt8], stamp: timespec) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let trailer = hex(length) + hex(text.count) + hex(Int(now.tv_sec) * 1_000_000_000 + now.tv_nsec) + sum
        return (text + inputs + Array(trailer.utf8) + magic, now)
    }

    private func place(_ staging: String, written: Bool) -> Bool {
        guard written, rename(staging, path) == 0 else {
            unlink(staging)
            return false
        }
        return true
    }

    /// Marks a hit: the access time is the cache's use order; the modification time stays. One
    /// used within the last hour is left as it is (eviction needs no finer order).
    func touch(accessed: timespec) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard now.tv_sec - accessed.tv_sec >= 3600 else { return }
        // UTIME_NOW and UTIME_OMIT from <sys/stat.h>, which Swift's Glibc module does not export.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    private static func hex(_ value: Int) -> String { Checksum.hex(UInt64(max(0, value))) }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> Int? { Int(String(decoding: bytes, as: UTF8.self), radix: 16) }
}
