import Glibc
import Support

/// The folder the build cache lives in, marked as asmrun's with a `CACHEDIR.TAG` (the cache
/// directory tagging convention backup tools honour). asmrun stores into, reports on and cleans
/// only a folder with its own tag, and inside it only names it made: `objects/<64 hex digits>`,
/// `tmp/<key>.<pid>.<n>`, `timings`. So `--cache-dir ~` is refused instead of emptying `~/tmp`,
/// and a user's `notes.txt` in the cache is neither counted nor removed.
package struct CacheFolder: Sendable {
    package let root: String
    /// Made by this open, from an empty folder: nothing is in it yet (no ledger to read).
    package var created = false

    static let tagName = "CACHEDIR.TAG"
    private static let signature = "Signature: 8a477f597d28d172789f06886806bc55\n"
    private static let tag =
        signature + "# This file is a cache directory tag created by asmrun (the build cache of `asmrun test`).\n"
        + "# For information about cache directory tags, see https://bford.info/cachedir/\n"
    /// What a cache made before the tag existed holds.
    private static let ownNames: Set<String> = ["objects", "tmp", "timings", CacheMaintenance.ledgerName, tagName]

    /// The cache at `root`, created with its tag when the folder is missing or empty (or holds a
    /// cache from before the tag); `nil` when the folder cannot be created (caching is then off);
    /// an error when the folder holds something that is not asmrun's.
    package static func open(_ root: String) throws -> CacheFolder? {
        if try existing(root, adopting: true) == nil {
            if Files.makeDirectory(root) { return try made(root) }
            // Made meanwhile by another process (or not at all).
            guard Files.isDirectory(root) else { return nil }
            return try existing(root, adopting: true)
        }
        return CacheFolder(root: root)
    }

    /// The cache in the folder `open` has just made: empty and asmrun's, so it is tagged and
    /// furnished without looking at it again (a third of a first run's cache set-up). The tag is
    /// written in place: one that another asmrun reads half-written is asmrun's cut short (see
    /// `existing`).
    private static func made(_ root: String) throws -> CacheFolder {
        let fd = Glibc.open(root + "/" + tagName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 {
            _ = writeAll(Array(tag.utf8), to: fd)
            Glibc.close(fd)
        }
        var folder = try prepared(root)
        folder.created = true
        return folder
    }

    /// The cache at `root` when there is one, without changing anything; `nil` when the folder
    /// does not exist; an error when it exists but is not asmrun's.
    package static func existing(_ root: String) throws -> CacheFolder? { try existing(root, adopting: false) }

    private static func existing(_ root: String, adopting: Bool) throws -> CacheFolder? {
        let listed = try Files.unlessMissing(root, fix: { _ in "check its permissions" }) { () throws(Files.ReadFailure) in
            try Files.list(root)
        }
        guard let names = listed else { return nil }
        let found = try? Files.read(root + "/" + tagName)
        if let found, String(decoding: found, as: UTF8.self).hasPrefix(signature), String(decoding: found, as: UTF8.self).contains("asmrun")
        {
            return adopting ? try prepared(root) : CacheFolder(root: root)
        }
        // No tag (an empty folder, or a cache from before the tag), or asmrun's own cut short (it
        // is written without fsync): asmrun's when the rest is, tagged when it is used.
        let ours = found.map { Array(tag.utf8).starts(with: $0) } ?? true
        if ours, names.allSatisfy({ ownNames.contains($0) || isTemporary($0) }), ownEntriesOnly(root) {
            guard adopting else { return CacheFolder(root: root) }
            try AtomicFile.write(Array(tag.utf8), to: root + "/" + tagName, durable: false)
            var folder = try prepared(root)
            folder.created = names.isEmpty
            return folder
        }
        throw FileError(
            path: root, problem: "is not an asmrun cache (it holds other files and no asmrun CACHEDIR.TAG), so asmrun leaves it alone",
            fix: "name a new or empty folder with --cache-dir, such as \(root.hasSuffix("/") ? root : root + "/")asmrun-cache")
    }

    /// A cache entry's file name: a SHA-256 in hex.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// An entry being stored: `<key>.<pid>.<n>` in `tmp/`.
    static func isStagingName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && isEntryName(String(parts[0]))
            && parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil }
    }

    /// The pid that is storing a staging file.
    static func stagingOwner(_ name: String) -> pid_t? {
        isStagingName(name) ? pid_t(name.split(separator: ".")[1]) : nil
    }

    /// `timings`, the ledger or the tag being replaced (`AtomicFile`'s sibling temporary): the
    /// tag's is there while another asmrun creates the same new cache, which then is not someone
    /// else's folder.
    private static func isTemporary(_ name: String) -> Bool {
        [".timings.asmrun-", ".\(CacheMaintenance.ledgerName).asmrun-", ".\(tagName).asmrun-"].contains { name.hasPrefix($0) }
    }

    private static func ownEntriesOnly(_ root: String) -> Bool {
        ((try? Files.list(root + "/objects")) ?? []).allSatisfy(isEntryName)
            && ((try? Files.list(root + "/tmp")) ?? []).allSatisfy(isStagingName)
    }

    private static func prepared(_ root: String) throws -> CacheFolder {
        guard ["/objects", "/tmp"].allSatisfy({ Files.makeDirectories(root + $0) }) else {
            throw FileError(
                path: root, problem: "cannot hold the cache's folders (\(errorText()))", fix: "check its permissions")
        }
        return CacheFolder(root: root)
    }
}
