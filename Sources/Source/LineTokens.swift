/// The words of a line's code: runs of letters, digits and `_.$@`, outside quoted strings,
/// up to a `;` comment.
struct LineTokens {
    enum Mode { case other, bits, global }

    /// What a word says about the word after it.
    enum Previous { case other, int, addOrSub, mov, movEBP, movESP }

    let line: UnsafeBufferPointer<UInt8>
    let end: Int
    private var position: Int
    /// The number of the word last returned, from 0.
    private(set) var index = -1
    var mode = Mode.other
    var previous = Previous.other

    init(line: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        self.line = line
        self.end = end
        position = start
    }

    mutating func next() -> Range<Int>? {
        while position < end {
            let byte = line[position]
            if byte == ASCII.semicolon { return nil }
            if byte == ASCII.doubleQuote || byte == ASCII.singleQuote || byte == ASCII.backquote {
                skipQuoted(byte)
                continue
            }
            guard Self.isWordByte(byte) else {
                position += 1
                continue
            }
            let start = position
            while position < end && Self.isWordByte(line[position]) { position += 1 }
            index += 1
            return start..<position
        }
        return nil
    }

    private mutating func skipQuoted(_ quote: UInt8) {
        position += 1
        while position < end {
            let byte = line[position]
            position += 1
            if quote == ASCII.backquote && byte == ASCII.backslash {
                position += 1
            } else if byte == quote {
                return
            }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@")
    }
}

/// The bytes the scanner looks for.
enum ASCII {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let semicolon = UInt8(ascii: ";")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let backquote = UInt8(ascii: "`")
    static let backslash = UInt8(ascii: "\\")
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let openBracket = UInt8(ascii: "[")
    static let percent = UInt8(ascii: "%")
}
