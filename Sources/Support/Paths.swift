/// Path arithmetic on strings, as `NSString` does it but without Foundation (and far cheaper
/// in loops over thousands of files).
package enum Paths {
    /// `asm` for `x/prog.asm`, `""` for `x/Makefile` or `.hidden`.
    package static func pathExtension(_ path: String) -> String {
        let name = Array(lastComponent(path).utf8)
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self)
    }

    /// `prog.asm` for `x/prog.asm` (trailing slashes ignored).
    package static func lastComponent(_ path: String) -> String {
        var bytes = Array(path.utf8)
        if bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard bytes != [UInt8(ascii: "/")], let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// `x/prog` for `x/prog.asm`.
    package static func deletingExtension(_ path: String) -> String {
        let suffix = pathExtension(path)
        return suffix.isEmpty ? path : String(decoding: path.utf8.dropLast(suffix.utf8.count + 1), as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `trimmingCharacters` costs
    /// far more in a parser's inner loop).
    package var trimmingBlanks: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
