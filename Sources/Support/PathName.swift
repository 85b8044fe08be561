/// The path manipulations asmrun needs, on plain strings and with `NSString`'s results for them
/// (FoundationEssentials has no `NSString`): `/a/b.asm` → directory `/a`, last component `b.asm`.
package enum PathName {
    /// The path without its last component: `a/b` → `a`, `/a` → `/`, `b` → `` (empty).
    package static func directory(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last component: `/a/b.asm` → `b.asm`, `a/b/` → `b`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    }

    /// The path without the extension of its last component: `asm/x.asm` → `asm/x`; a leading
    /// dot (`.hidden`) is not an extension, and a folder's dot (`a.b/c`) is left alone. Unlike
    /// `NSString`, a `//` inside the path is kept as it is.
    package static func removingExtension(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        let nameStart = trimmed.lastIndex(of: "/").map { trimmed.index(after: $0) } ?? trimmed.startIndex
        guard let dot = trimmed[nameStart...].lastIndex(of: "."), dot != nameStart else { return trimmed }
        return String(trimmed[..<dot])
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1 && result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
