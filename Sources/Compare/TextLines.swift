import Support

/// Program output as lines of bytes, with whether the last line ended in a newline; and the
/// escaping that makes any byte sequence readable (`\r`, `\x00`, `\e`) in files and diffs.
package struct TextLines: Sendable, Equatable {
    /// The lines without their `\n`.
    package var lines: [[UInt8]]
    /// The text ended with `\n` (or was empty).
    package var endsWithNewline: Bool

    package init(lines: [[UInt8]], endsWithNewline: Bool = true) {
        self.lines = lines
        self.endsWithNewline = endsWithNewline
    }

    /// Splits bytes at `\n`.
    package init(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            self.init(lines: [], endsWithNewline: true)
            return
        }
        var lines = bytes.split(separator: 0x0a, omittingEmptySubsequences: false).map(Array.init)
        let newline = bytes.last == 0x0a
        if newline { lines.removeLast() }
        self.init(lines: lines, endsWithNewline: newline)
    }

    /// `stdout: any`: one `[...]` line, which matches any output (a test driver's report, checked
    /// by its exit status alone).
    package static let anything = TextLines(lines: [Array("[...]".utf8)])

    /// The bytes back, newlines included.
    package var bytes: [UInt8] {
        var result: [UInt8] = []
        for (index, line) in lines.enumerated() {
            result += line
            if index < lines.count - 1 || endsWithNewline { result.append(0x0a) }
        }
        return result
    }

    /// A line is shown as it is when it is valid UTF-8 without control characters (tab allowed).
    package static func isPlain(_ line: [UInt8]) -> Bool {
        guard line.allSatisfy({ $0 >= 0x20 && $0 != 0x7f || $0 == 0x09 }) else { return false }
        return String(validating: line, as: UTF8.self) != nil
    }

    /// `\r`, `\t`, `\e`, `\\` and `\xNN` for everything that is not printable UTF-8.
    package static func escape(_ line: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < line.count {
            let byte = line[index]
            if byte >= 0x80, let (scalar, length) = decodeScalar(line, at: index) {
                text.unicodeScalars.append(scalar)
                index += length
                continue
            }
            switch byte {
            case 0x5c: text += "\\\\"
            case 0x0d: text += "\\r"
            case 0x09: text += "\\t"
            case 0x1b: text += "\\e"
            case 0x20..<0x7f: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16).leftPadded(to: 2)
            }
            index += 1
        }
        return text
    }

    /// Reverses `escape`; `nil` when an escape is malformed.
    static func unescape(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x5c else {
                bytes.append(byte)
                continue
            }
            switch iterator.next() {
            case UInt8(ascii: "\\"): bytes.append(0x5c)
            case UInt8(ascii: "r"): bytes.append(0x0d)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "e"): bytes.append(0x1b)
            case UInt8(ascii: "x"):
                guard let high = iterator.next().flatMap(HexDigits.value), let low = iterator.next().flatMap(HexDigits.value) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: return nil
            }
        }
        return bytes
    }

    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0
        guard length > 0, index + length <= bytes.count,
            let text = String(validating: bytes[index..<index + length], as: UTF8.self),
            let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1,
            scalar.value >= 0xa0
        else { return nil }
        return (scalar, length)
    }
}
