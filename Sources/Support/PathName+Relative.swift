extension PathName {
    /// `sum.asm` for `subs/bob/sum.asm` under `subs/bob/`; the last component when `path` is
    /// `root` itself; `path` unchanged when it is not under `root`.
    package static func relative(_ path: String, to root: String) -> String {
        var base = root
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        guard path != base, path != root else { return lastComponent(of: path) }
        if base == "." { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let prefix = base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
