/// One pass over assembly text, byte by byte, that finds what asmrun needs before nasm runs:
/// `; asmrun:` directives, `bits 32`, the entry symbols, the files pulled in with `%include`
/// and `incbin`, and the marks of 32-bit code (`int 0x80` without any 64-bit register or
/// `syscall`). Comments and quoted strings are recognised the way nasm reads them (`;` starts a
/// comment outside '…', "…" and `…`), lines may end in CRLF, a UTF-8 byte order mark is
/// skipped, keywords are matched in any case.
struct SourceScan {
    /// Directive text after `asmrun:`, with its 1-based line number.
    var directives: [(line: Int, text: String)] = []
    var declaresBits32 = false
    var definesStart = false
    var definesMain = false
    /// Names given to `%include` and `incbin`, in order.
    var includes: [String] = []
    /// `int 0x80` (or `int 80h`): the 32-bit system call interface.
    var usesInt80 = false
    /// The `syscall` instruction: the 64-bit system call interface.
    var usesSyscall = false
    /// A 64-bit register (`rax` … `r15`, `rip`) appears in the code.
    var names64BitRegister = false

    init(_ bytes: [UInt8], includesOnly: Bool = false) {
        bytes.withUnsafeBufferPointer { text in
            var lineStart = text.starts(with: [0xef, 0xbb, 0xbf]) ? 3 : 0
            var number = 0
            while lineStart <= text.count {
                var lineEnd = lineStart
                while lineEnd < text.count && text[lineEnd] != newline { lineEnd += 1 }
                number += 1
                scanLine(Slice(base: text, bounds: lineStart..<lineEnd), number: number, includesOnly: includesOnly)
                lineStart = lineEnd + 1
            }
        }
    }

    private mutating func scanLine(_ raw: Slice<UnsafeBufferPointer<UInt8>>, number: Int, includesOnly: Bool) {
        var line = raw.drop { $0 == space || $0 == tab }
        while let last = line.last, last == carriageReturn || last == space || last == tab { line = line.dropLast() }
        guard let first = line.first else { return }
        if first == semicolon {
            if !includesOnly, let directive = Self.directive(in: line) { directives.append((number, directive)) }
            return
        }
        var code = line[line.startIndex..<Self.commentStart(in: line)]
        while let last = code.last, last == space || last == tab { code = code.dropLast() }
        guard !code.isEmpty else { return }
        let lower = code.map(Self.lowercased)
        if lower.starts(with: Self.includeKeyword) {
            if let name = Self.quotedName(after: Self.includeKeyword.count, in: Array(code)) { includes.append(name) }
        } else if let offset = Self.word(Self.incbinKeyword, in: lower),
            let name = Self.quotedName(after: offset + Self.incbinKeyword.count, in: Array(code))
        {
            includes.append(name)
        }
        if !includesOnly { scanDeclarations(lower) }
    }

    /// `bits 32`, `[BITS 32]`, `use32`, `global _start`, `export main`, `_start:`, `main:`.
    private mutating func scanDeclarations(_ lower: [UInt8]) {
        let words = lower.split { $0 == space || $0 == tab || $0 == comma || $0 == openBracket || $0 == closeBracket }
        guard let head = words.first else { return }
        if head.elementsEqual("bits".utf8), words.count >= 2, words[1].elementsEqual("32".utf8) { declaresBits32 = true }
        if head.elementsEqual("use32".utf8) { declaresBits32 = true }
        if head.elementsEqual("global".utf8) || head.elementsEqual("export".utf8) {
            for word in words.dropFirst() {
                let name = word.prefix { $0 != colon }
                if name.elementsEqual("_start".utf8) { definesStart = true }
                if name.elementsEqual("main".utf8) { definesMain = true }
            }
        }
        if lower.starts(with: "_start:".utf8) { definesStart = true }
        if lower.starts(with: "main:".utf8) { definesMain = true }
        scanInstructions(lower)
    }

    /// The system call interface and register width the code uses.
    private mutating func scanInstructions(_ lower: [UInt8]) {
        let tokens = lower.split { !Self.isWordByte($0) }
        for (index, token) in tokens.enumerated() {
            if token.elementsEqual("syscall".utf8) { usesSyscall = true }
            if token.elementsEqual("int".utf8), index + 1 < tokens.count,
                Self.interrupt80.contains(where: { $0.elementsEqual(tokens[index + 1]) })
            {
                usesInt80 = true
            }
            if !names64BitRegister, Self.is64BitRegister(token) { names64BitRegister = true }
        }
    }

    private static let interrupt80: [[UInt8]] = [Array("0x80".utf8), Array("80h".utf8), Array("0h80".utf8), Array("128".utf8)]
    private static let registers64: [[UInt8]] = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip"].map { Array($0.utf8) }

    /// `rax` … `rsp`, `rip`, and `r8` … `r15` with their `d`/`w`/`b` forms.
    private static func is64BitRegister(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.first == UInt8(ascii: "r"), token.count >= 2, token.count <= 4 else { return false }
        if token.count == 3 && registers64.contains(where: { $0.elementsEqual(token) }) { return true }
        var digits = token.dropFirst()
        if let last = digits.last, last == UInt8(ascii: "d") || last == UInt8(ascii: "w") || last == UInt8(ascii: "b") {
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(String(decoding: digits, as: UTF8.self))
        else { return false }
        return (8...15).contains(number)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@")
    }

    /// The text after `; asmrun:` (any number of `;`, blanks allowed), or `nil`.
    private static func directive(in line: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        let body = line.drop { $0 == semicolon }.drop { $0 == space || $0 == tab }
        guard body.starts(with: "asmrun:".utf8) else { return nil }
        let text = body.dropFirst("asmrun:".count).drop { $0 == space || $0 == tab }
        return String(decoding: text, as: UTF8.self)
    }

    /// Where a `;` comment starts, outside quotes; the end of the line when there is none.
    private static func commentStart(in line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var quote: UInt8?
        var escaped = false
        for index in line.indices {
            let byte = line[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == backquote && byte == backslash {
                    escaped = true
                } else if byte == open {
                    quote = nil
                }
            } else if byte == doubleQuote || byte == singleQuote || byte == backquote {
                quote = byte
            } else if byte == semicolon {
                return index
            }
        }
        return line.endIndex
    }

    /// The offset of `keyword` as a whole word (after a label's `:` or blanks).
    private static func word(_ keyword: [UInt8], in lower: [UInt8]) -> Int? {
        guard lower.count >= keyword.count,
            let start = (0...(lower.count - keyword.count)).first(where: {
                lower[$0] == keyword[0] && lower[$0..<$0 + keyword.count].elementsEqual(keyword)
            })
        else { return nil }
        let end = start + keyword.count
        let before = start == 0 ? space : lower[start - 1]
        let after = end < lower.count ? lower[end] : space
        guard before == space || before == tab || before == colon, after == space || after == tab else { return nil }
        return start
    }

    /// `"name"`, `'name'`, `` `name` `` or `<name>` after blanks at `offset`.
    private static func quotedName(after offset: Int, in code: [UInt8]) -> String? {
        let rest = code[offset...].drop { $0 == space || $0 == tab }
        guard let open = rest.first, open == doubleQuote || open == singleQuote || open == backquote || open == lessThan
        else { return nil }
        let close = open == lessThan ? greaterThan : open
        let body = rest.dropFirst()
        guard let end = body.firstIndex(of: close), end > body.startIndex else { return nil }
        return String(decoding: body[..<end], as: UTF8.self)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte }

    private static let includeKeyword = Array("%include".utf8)
    private static let incbinKeyword = Array("incbin".utf8)
}

private let newline = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let semicolon = UInt8(ascii: ";")
private let colon = UInt8(ascii: ":")
private let comma = UInt8(ascii: ",")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")
private let doubleQuote = UInt8(ascii: "\"")
private let singleQuote = UInt8(ascii: "'")
private let backquote = UInt8(ascii: "`")
private let backslash = UInt8(ascii: "\\")
private let lessThan = UInt8(ascii: "<")
private let greaterThan = UInt8(ascii: ">")
