/// A C file's lines as gcc's preprocessor reads them, before any check looks at them: a `\`
/// before a line end (LF, CRLF or a lone CR, with blanks between allowed, as gcc allows) joins
/// two lines, in strings and comments too (`#\` then `include "x"` is `#include "x"`); a comment
/// is one space (`/**/ #include "x"` is a directive) and a block comment may span lines. Each
/// line is numbered by the physical line it starts on.
struct CSourceLines {
    struct Line {
        /// The text, continued lines joined and comments replaced by a space.
        var code: String
        /// The text, continued lines joined, comments kept.
        var spliced: String
        /// 1-based, the physical line it starts on.
        var number: Int
    }

    private(set) var lines: [Line] = []

    private enum State { case code, string(UInt8), lineComment, blockComment }

    private var state = State.code
    private var code: [UInt8] = []
    private var spliced: [UInt8] = []
    private var physical = 1
    private var start = 1

    init(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            if let next = Self.splice(bytes, at: index) {
                physical += 1
                index = next
                continue
            }
            let byte = bytes[index]
            if byte == cr || byte == lf {
                index += byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf ? 2 : 1
                physical += 1
                endLine()
                continue
            }
            index = take(bytes, at: index)
        }
        if !code.isEmpty || !spliced.isEmpty { endLine() }
    }

    /// Where the text goes on after a `\`, blanks and a line end at `index`; `nil` when there is
    /// none there.
    private static func splice(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index] == backslash else { return nil }
        var next = index + 1
        while next < bytes.count && (bytes[next] == space || bytes[next] == tab) { next += 1 }
        guard next < bytes.count, bytes[next] == cr || bytes[next] == lf else { return nil }
        return bytes[next] == cr && next + 1 < bytes.count && bytes[next + 1] == lf ? next + 2 : next + 1
    }

    /// Takes the byte at `index` (two for `/*`, `//`, `*/` and an escape in a string); returns
    /// the index after.
    private mutating func take(_ bytes: [UInt8], at index: Int) -> Int {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        spliced.append(byte)
        switch state {
        case .code:
            if byte == slash && (next == star || next == slash) {
                state = next == star ? .blockComment : .lineComment
                spliced.append(next)
                code.append(space)
                return index + 2
            }
            if byte == quote || byte == apostrophe { state = .string(byte) }
            code.append(byte)
        case .string(let close):
            code.append(byte)
            if byte == close { state = .code }
            if byte == backslash && next != cr && next != lf && index + 1 < bytes.count {
                code.append(next)
                spliced.append(next)
                return index + 2
            }
        case .lineComment:
            break
        case .blockComment:
            if byte == star && next == slash {
                spliced.append(next)
                state = .code
                return index + 2
            }
        }
        return index + 1
    }

    /// A line end: the line ends unless a block comment goes on.
    private mutating func endLine() {
        if case .blockComment = state { return }
        lines.append(Line(code: String(decoding: code, as: UTF8.self), spliced: String(decoding: spliced, as: UTF8.self), number: start))
        code = []
        spliced = []
        state = .code
        start = physical
    }
}

private let cr = UInt8(ascii: "\r")
private let lf = UInt8(ascii: "\n")
private let backslash = UInt8(ascii: "\\")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let slash = UInt8(ascii: "/")
private let star = UInt8(ascii: "*")
private let quote = UInt8(ascii: "\"")
private let apostrophe = UInt8(ascii: "'")
