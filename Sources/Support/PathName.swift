/// The path manipulations asmrun needs, on plain strings and with `NSString`'s results for them
/// (FoundationEssentials has no `NSString`): `/a/b.asm` → directory `/a`, last component `b.asm`.
/// They work on the UTF-8 bytes: discovery calls them for every file of a suite.
package enum PathName {
    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// The path without its last component: `a/b` → `a`, `/a` → `/`, `b` → `` (empty).
    package static func directory(of path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard let last = bytes.lastIndex(of: slash) else { return "" }
        let parent = trimmingTrailingSlashes(Array(bytes[..<last]))
        return parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }

    /// The last component: `/a/b.asm` → `b.asm`, `a/b/` → `b`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard bytes != [slash], let last = bytes.lastIndex(of: slash) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(last + 1)...], as: UTF8.self)
    }

    /// The path without the extension of its last component: `asm/x.asm` → `asm/x`; a leading
    /// dot (`.hidden`) is not an extension, and a folder's dot (`a.b/c`) is left alone. Unlike
    /// `NSString`, a `//` inside the path is kept as it is.
    package static func removingExtension(_ path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard let dot = extensionDot(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[..<dot], as: UTF8.self)
    }

    /// The extension of the last component, without its dot: `x/prog.ASM` → `ASM`, `.hidden` → ``.
    package static func pathExtension(of path: String) -> String {
        let bytes = trimmingTrailingSlashes(Array(path.utf8))
        guard let dot = extensionDot(bytes) else { return "" }
        return String(decoding: bytes[(dot + 1)...], as: UTF8.self)
    }

    /// Where the last component's extension starts (its dot), if it has one.
    private static func extensionDot(_ bytes: [UInt8]) -> Int? {
        let nameStart = bytes.lastIndex(of: slash).map { $0 + 1 } ?? 0
        guard let dot = bytes[nameStart...].lastIndex(of: dot), dot != nameStart else { return nil }
        return dot
    }

    private static func trimmingTrailingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 1 && bytes[end - 1] == slash { end -= 1 }
        return end == bytes.count ? bytes : Array(bytes[..<end])
    }
}
