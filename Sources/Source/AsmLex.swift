/// Byte-level pieces of nasm's syntax the syscall check reads lines with: the code before a `;`
/// comment (quotes respected), words, comma-separated operands and numbers. Lines are slices of
/// the file's bytes (or of a macro's expanded line), read in place: no copy, no reference
/// counting per slice (valid only while the buffer is, so a slice kept is made an array).
enum AsmLex {
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// The line's code: up to a `;` outside quotes, without surrounding blanks or a CR.
    static func code(_ line: Bytes) -> Bytes {
        var end = line.endIndex
        var index = line.startIndex
        var quote: UInt8 = 0
        while index < line.endIndex {
            let byte = line[index]
            if quote != 0 {
                if byte == quote { quote = 0 } else if byte == backslash && quote == backquote { index += 1 }
            } else if byte == semicolon {
                end = index
                break
            } else if byte == doubleQuote || byte == singleQuote || byte == backquote {
                quote = byte
            }
            index += 1
        }
        return trimmed(line[line.startIndex..<min(end, line.endIndex)])
    }

    /// `bytes` without leading and trailing blanks (spaces, tabs, CR).
    static func trimmed(_ bytes: Bytes) -> Bytes {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && isBlank(bytes[start]) { start += 1 }
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// The word at the start of `rest` (after blanks), which is then past it and the blanks after
    /// it; `nil` when `rest` does not start with a word.
    static func word(_ rest: inout Bytes) -> Bytes? {
        rest = trimmed(rest)
        var end = rest.startIndex
        while end < rest.endIndex && isWordByte(rest[end]) { end += 1 }
        guard end > rest.startIndex else { return nil }
        let found = rest[rest.startIndex..<end]
        rest = trimmed(rest[end...])
        return found
    }

    /// The words of `bytes` outside quotes and `{…}` decorations (`{k1}`, `{z}`).
    static func words(_ bytes: Bytes) -> [Bytes] {
        var found: [Bytes] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == doubleQuote || byte == singleQuote || byte == backquote || byte == openBrace {
                let close = byte == openBrace ? closeBrace : byte
                index = (bytes[(index + 1)...].firstIndex(of: close) ?? bytes.endIndex - 1) + 1
            } else if isWordByte(byte) {
                let start = index
                while index < bytes.endIndex && isWordByte(bytes[index]) { index += 1 }
                found.append(bytes[start..<index])
            } else {
                index += 1
            }
        }
        return found
    }

    /// The parts of `bytes` between commas outside brackets, parentheses, braces and quotes, each
    /// trimmed; `braces`: a part in `{…}` loses them (a macro argument holding commas).
    static func split(_ bytes: Bytes, braces: Bool = false) -> [Bytes] {
        guard !bytes.isEmpty else { return [] }
        var parts: [Bytes] = []
        var depth = 0
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == doubleQuote || byte == singleQuote || byte == backquote {
                index = bytes[(index + 1)...].firstIndex(of: byte) ?? bytes.endIndex - 1
            } else if byte == openBracket || byte == openParenthesis || byte == openBrace {
                depth += 1
            } else if byte == closeBracket || byte == closeParenthesis || byte == closeBrace {
                depth -= 1
            } else if byte == comma && depth <= 0 {
                parts.append(trimmed(bytes[start..<index]))
                start = index + 1
            }
            index += 1
        }
        parts.append(trimmed(bytes[start..<bytes.endIndex]))
        guard braces else { return parts }
        return parts.map { part in part.first == openBrace && part.last == closeBrace ? trimmed(part.dropFirst().dropLast()) : part }
    }

    /// `bytes` in lower case, as a string (short words stay inline: no allocation).
    static func lower(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() { buffer[offset] = lowercased(byte) }
            return bytes.count
        }
    }

    static func string(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` with `array`'s bytes as a slice to read lines of.
    static func reading<Result>(_ array: [UInt8], _ body: (Bytes) -> Result) -> Result {
        array.withUnsafeBufferPointer { body($0[...]) }
    }

    /// Whether `bytes` is `word` (given in lower case) in any case.
    static func equals(_ bytes: Bytes, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let start = word.utf8Start
        var offset = 0
        for byte in bytes {
            if lowercased(byte) != start[offset] { return false }
            offset += 1
        }
        return true
    }

    /// An integer as nasm writes one: `60`, `0x3c`, `3ch`, `$3c`, `0o74`, `74q`, `0b111100`,
    /// `111100b`, `0d60`, with `_` separators and a leading `-` or `+`.
    static func integer(_ bytes: some Collection<UInt8>) -> Int64? {
        var text = bytes.drop(while: isBlank).map(lowercased).filter { $0 != underscore }
        while let last = text.last, isBlank(last) { text.removeLast() }
        var negative = false
        if let sign = text.first, sign == minus || sign == plus {
            negative = sign == minus
            text.removeFirst()
        }
        guard let first = text.first, (first >= 0x30 && first <= 0x39) || first == dollar else { return nil }
        var radix = 10
        if first == dollar {
            (radix, text) = (16, Array(text.dropFirst()))
        } else if text.count > 2 && first == 0x30, let base = radixPrefix(text[1]) {
            (radix, text) = (base, Array(text.dropFirst(2)))
        } else if let last = text.last, let base = radixSuffix(last) {
            (radix, text) = (base, Array(text.dropLast()))
        }
        guard !text.isEmpty, text.count <= 20, let value = Int64(String(decoding: text, as: UTF8.self), radix: radix) else { return nil }
        return negative ? -value : value
    }

    private static func radixPrefix(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "x"), UInt8(ascii: "h"): 16
        case UInt8(ascii: "o"), UInt8(ascii: "q"): 8
        case UInt8(ascii: "b"), UInt8(ascii: "y"): 2
        case UInt8(ascii: "d"), UInt8(ascii: "t"): 10
        default: nil
        }
    }

    private static func radixSuffix(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "h"): 16
        case UInt8(ascii: "o"), UInt8(ascii: "q"): 8
        case UInt8(ascii: "b"), UInt8(ascii: "y"): 2
        case UInt8(ascii: "d"), UInt8(ascii: "t"): 10
        default: nil
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte }

    /// Letters, digits and `_.$#@~?`: the bytes of nasm's identifiers and numbers.
    static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == underscore || byte == dot
            || byte == dollar || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "~")
            || byte == UInt8(ascii: "?")
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == carriageReturn }

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let carriageReturn = UInt8(ascii: "\r")
    static let newline = UInt8(ascii: "\n")
    static let semicolon = UInt8(ascii: ";")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let percent = UInt8(ascii: "%")
    static let dot = UInt8(ascii: ".")
    static let dollar = UInt8(ascii: "$")
    static let underscore = UInt8(ascii: "_")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let backslash = UInt8(ascii: "\\")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let backquote = UInt8(ascii: "`")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
}
