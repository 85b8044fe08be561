/// A parsed JSON document (RFC 8259), for the few JSON files asmrun reads (a `--json` report
/// given to `--balance`). Depth and size are bounded: a hostile file gets an error, never a
/// stack overflow.
package indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// What is wrong with a document, and where (a byte offset).
    package struct ParseError: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    static let maxDepth = 200

    package init(parsing bytes: [UInt8]) throws {
        var parser = JSONParser(bytes: bytes)
        parser.skipBlanks()
        self = try parser.value(depth: 0)
        parser.skipBlanks()
        guard parser.offset == bytes.count else { throw parser.failure("text after the document") }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func failure(_ problem: String) -> JSONValue.ParseError {
        JSONValue.ParseError(description: "\(problem) at byte \(offset)")
    }

    mutating func skipBlanks() {
        while offset < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[offset]) { offset += 1 }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONValue.maxDepth else { throw failure("nesting deeper than \(JSONValue.maxDepth)") }
        guard offset < bytes.count else { throw failure("the document ends early") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func word(_ text: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count,
            bytes[offset..<offset + count].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
        else { throw failure("an unknown word") }
        offset += count
        return value
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        try elements(closedBy: "}") {
            guard $0.offset < $0.bytes.count, $0.bytes[$0.offset] == UInt8(ascii: "\"") else { throw $0.failure("a member name expected") }
            let key = try $0.string()
            $0.skipBlanks()
            guard $0.offset < $0.bytes.count, $0.bytes[$0.offset] == UInt8(ascii: ":") else { throw $0.failure("`:` expected") }
            $0.offset += 1
            $0.skipBlanks()
            members[key] = try $0.value(depth: depth + 1)
        }
        return .object(members)
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        var elements: [JSONValue] = []
        try self.elements(closedBy: "]") { elements.append(try $0.value(depth: depth + 1)) }
        return .array(elements)
    }

    /// The comma-separated elements of an object or array, from its opening bracket to `closing`.
    private mutating func elements(closedBy closing: Unicode.Scalar, _ element: (inout JSONParser) throws -> Void) throws {
        offset += 1
        skipBlanks()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: closing) {
            offset += 1
            return
        }
        while true {
            skipBlanks()
            try element(&self)
            skipBlanks()
            guard offset < bytes.count else { throw failure("the document ends before `\(closing)`") }
            offset += 1
            if bytes[offset - 1] == UInt8(ascii: closing) { return }
            guard bytes[offset - 1] == UInt8(ascii: ",") else { throw failure("`,` or `\(closing)` expected") }
        }
    }

    private mutating func number() throws -> Double {
        let start = offset
        while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        // Double's own parser is laxer than JSON (it takes `.5`, `1.`, `+1`, `0x1`, `inf`):
        // the shape is checked first.
        guard Self.isJSONNumber(Array(text.utf8)), let value = Double(text), value.isFinite else {
            offset = start
            throw failure("a malformed number")
        }
        return value
    }

    private static func isJSONNumber(_ text: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits()
        guard whole > 0, whole == 1 || text[index - whole] != 0x30 else { return false }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    private mutating func string() throws -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run = offset
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                flush(offset)
                offset += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            if byte == UInt8(ascii: "\\") {
                flush(offset)
                scalars.append(try escape())
                run = offset
            } else {
                offset += 1
            }
        }
        throw failure("a string that does not end")
    }

    private mutating func escape() throws -> Unicode.Scalar {
        offset += 1
        guard offset < bytes.count else { throw failure("an escape that does not end") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{c}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first), offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                bytes[offset + 1] == UInt8(ascii: "u")
            {
                offset += 2
                let second = try hex4()
                if (0xDC00..<0xE000).contains(second), let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                    return scalar
                }
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        default: throw failure("an unknown escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("a \\u escape without four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = HexDigits.value(byte) else { throw failure("a \\u escape without four hex digits") }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }
}
