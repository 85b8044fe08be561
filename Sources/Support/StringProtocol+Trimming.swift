extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`).
    package func trimmingBlanks() -> String {
        trimming(ascii: { $0 == 0x20 || $0 == 0x09 }) { $0.isWhitespace && !$0.isNewline }
    }

    /// Without leading and trailing white space, newlines included (`.whitespacesAndNewlines`).
    package func trimmingWhitespace() -> String {
        trimming(ascii: { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0d) }, \.isWhitespace)
    }

    /// Bytes first: a parser trims every line, and most lines are ASCII at both ends. Only when
    /// an end is not ASCII are Characters asked (Unicode spaces such as NBSP).
    private func trimming(ascii: (UInt8) -> Bool, _ strip: (Character) -> Bool) -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end && ascii(bytes[start]) { start += 1 }
        while end > start && ascii(bytes[end - 1]) { end -= 1 }
        guard start < end else { return "" }
        let rest = String(decoding: bytes[start..<end], as: UTF8.self)
        guard bytes[start] >= 0x80 || bytes[end - 1] >= 0x80 else { return rest }
        guard let first = rest.firstIndex(where: { !strip($0) }), let last = rest.lastIndex(where: { !strip($0) }) else { return "" }
        return String(rest[first...last])
    }
}
