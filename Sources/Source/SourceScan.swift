import Glibc

/// One pass over assembly text, byte by byte and without allocating per line, that finds what
/// asmrun needs before nasm runs: `; asmrun:` directives, `bits 32`, the entry symbols, the
/// files pulled in with `%include` and `incbin`, and the marks of 32-bit code (`int 0x80`, esp
/// or ebp used as the stack pointer) and of 64-bit code (`syscall`, a 64-bit register). Comments
/// and quoted strings are recognised the way nasm reads them (`;` starts a comment outside '…',
/// "…" and `…`), lines may end in CRLF, a UTF-8 byte order mark is skipped, keywords are matched
/// in any case. Text can be fed in chunks, so a source of any size is scanned in a small buffer.
struct SourceScan {
    /// Directive text after `asmrun:`, with its 1-based line number.
    var directives: [(line: Int, text: String)] = []
    var declaresBits32 = false
    var definesStart = false
    var definesMain = false
    /// Names given to `%include` and `incbin`, in order.
    var includes: [String] = []
    /// The line of each of `includes`.
    var includeLines: [Int] = []
    /// `int 0x80` (or `int 80h`): the 32-bit system call interface.
    var usesInt80 = false
    /// The first line that uses esp or ebp as the stack pointer, as 32-bit code does: the base
    /// of a memory operand (`[esp+4]`, `[ebp-8]`), `add esp, N`, `sub esp, N`, `mov ebp, esp`
    /// or `mov esp, ebp`.
    var stackLine: Int?
    /// The `syscall` instruction: the 64-bit system call interface.
    var usesSyscall = false
    /// A 64-bit register (`rax` … `r15`, `rip`) appears in the code.
    var names64BitRegister = false
    /// The first line with `syscall` or a 64-bit register.
    var sixtyFourBitLine: Int?
    /// What nasm reads besides the files named here, for the build cache (also in include-only scans).
    var inputs = SourceInputs()

    private let includesOnly: Bool
    /// The start of a line the previous chunk ended in.
    var carry: [UInt8] = []
    var lineNumber = 0
    var atStart = true
    /// The last byte of the physical line so far, when it was carried from an earlier chunk.
    var lastCarried: UInt8?
    /// The previous chunk ended in CR: a LF first in this one is part of its line end.
    var pendingCarriageReturn = false
    /// Physical lines joined into the carried line by a `\` before their end.
    var continuedLines = 0

    /// Lines longer than this are scanned by their first bytes only.
    static let maxLine = 1 << 20

    init(includesOnly: Bool = false) { self.includesOnly = includesOnly }

    /// Scans the whole of `bytes`.
    init(_ bytes: [UInt8], includesOnly: Bool = false) {
        self.init(includesOnly: includesOnly)
        bytes.withUnsafeBytes { feed($0) }
        finish()
    }

    mutating func scanLine(_ line: UnsafeBufferPointer<UInt8>) {
        lineNumber += 1
        var start = 0
        var end = line.count
        while start < end && (line[start] == ASCII.space || line[start] == ASCII.tab) { start += 1 }
        while end > start && (line[end - 1] == ASCII.carriageReturn || line[end - 1] == ASCII.space || line[end - 1] == ASCII.tab) {
            end -= 1
        }
        guard start < end else { return }
        if line[start] == ASCII.semicolon {
            if !includesOnly, let directive = Self.directive(line, start, end) { directives.append((lineNumber, directive)) }
            return
        }
        var tokens = LineTokens(line: line, start: start, end: end)
        if line[start] == ASCII.percent { scanDirective(line, start, end) }
        if let mark = memchr(line.baseAddress! + start, Int32(ASCII.percent), end - start) {
            let from = line.baseAddress!.distance(to: mark.assumingMemoryBound(to: UInt8.self))
            inputs.scanEnvironment(line, from: from, to: end)
        }
        if !includesOnly {
            if Self.equalsLowercased(line, start, min(end, start + 7), "_start:") { definesStart = true }
            if Self.equalsLowercased(line, start, min(end, start + 5), "main:") { definesMain = true }
        }
        while let token = tokens.next() { take(token, from: &tokens) }
    }

    /// One word of code (outside quotes and comments) and what it says. Its first byte picks
    /// the words it can be before any comparison: most words are none of them.
    private mutating func take(_ token: Range<Int>, from tokens: inout LineTokens) {
        let line = tokens.line
        let first = Self.lowercased(line[token.lowerBound])
        if first == UInt8(ascii: "i") && Self.matches(line, token, "incbin") {
            if let name = Self.quotedName(line, from: token.upperBound, to: tokens.end) {
                includes.append(name)
                includeLines.append(lineNumber)
            } else {
                inputs.opaque = true
            }
        }
        if first == UInt8(ascii: "_") && SourceInputs.isClockMacro(line, token.lowerBound, tokens.end) {
            inputs.readsClock = true
        }
        guard !includesOnly else { return }
        if tokens.index == 0 || tokens.mode != .other { declaration(token, &tokens) }
        let previous = tokens.previous
        tokens.previous = .other
        switch first {
        case UInt8(ascii: "a"):
            if Self.matches(line, token, "add") { tokens.previous = .addOrSub }
        case UInt8(ascii: "s"):
            if Self.matches(line, token, "sub") {
                tokens.previous = .addOrSub
            } else if Self.matches(line, token, "syscall") {
                usesSyscall = true
                sixtyFourBitLine = sixtyFourBitLine ?? lineNumber
            }
        case UInt8(ascii: "m"):
            if Self.matches(line, token, "mov") { tokens.previous = .mov }
        case UInt8(ascii: "i"):
            if Self.matches(line, token, "int") { tokens.previous = .int }
        case UInt8(ascii: "e"):
            if token.count == 3 { stackRegister(token, after: previous, &tokens) }
        case UInt8(ascii: "r"):
            if !names64BitRegister && Self.is64BitRegister(line, token) {
                names64BitRegister = true
                sixtyFourBitLine = sixtyFourBitLine ?? lineNumber
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard previous == .int else { break }
            let isWord = { (word: StaticString) in Self.matches(line, token, word) }
            if isWord("0x80") || isWord("80h") || isWord("0h80") || isWord("128") { usesInt80 = true }
        default: break
        }
    }

    /// The words at the start of a line and after `bits`, `global` or `export`: `bits 32`,
    /// `use32`, and the entry symbols a `global` line names.
    private mutating func declaration(_ token: Range<Int>, _ tokens: inout LineTokens) {
        let line = tokens.line
        switch (tokens.index, tokens.mode) {
        case (0, _):
            if Self.matches(line, token, "bits") { tokens.mode = .bits }
            if Self.matches(line, token, "use32") { declaresBits32 = true }
            if Self.matches(line, token, "global") || Self.matches(line, token, "export") { tokens.mode = .global }
        case (1, .bits):
            if Self.matches(line, token, "32") { declaresBits32 = true }
        case (_, .global):
            if Self.matches(line, token, "_start") { definesStart = true }
            if Self.matches(line, token, "main") { definesMain = true }
        default: break
        }
    }

    /// `esp` or `ebp` used as the stack pointer of 32-bit code: the base of a memory operand
    /// (`[esp+4]`, `[ebp-8]`), `add esp, N`, `sub esp, N`, `mov ebp, esp` or `mov esp, ebp`.
    private mutating func stackRegister(_ token: Range<Int>, after previous: LineTokens.Previous, _ tokens: inout LineTokens) {
        let line = tokens.line
        let isESP = Self.matches(line, token, "esp")
        guard isESP || Self.matches(line, token, "ebp"), stackLine == nil else { return }
        var before = token.lowerBound - 1
        while before >= 0 && (line[before] == ASCII.space || line[before] == ASCII.tab) { before -= 1 }
        var marks = before >= 0 && line[before] == ASCII.openBracket
        switch previous {
        case .mov: tokens.previous = isESP ? .movESP : .movEBP
        case .addOrSub, .movEBP: marks = marks || isESP
        case .movESP: marks = marks || !isESP
        case .int, .other: break
        }
        if marks { stackLine = lineNumber }
    }

    /// The text after `; asmrun:` (any number of `;`, blanks allowed), or `nil`.
    private static func directive(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        var position = start
        while position < end && line[position] == ASCII.semicolon { position += 1 }
        while position < end && (line[position] == ASCII.space || line[position] == ASCII.tab) { position += 1 }
        guard equalsLowercased(line, position, min(end, position + 7), "asmrun:") else { return nil }
        position += 7
        while position < end && (line[position] == ASCII.space || line[position] == ASCII.tab) { position += 1 }
        return String(decoding: line[position..<end], as: UTF8.self)
    }

    /// `"name"`, `'name'`, `` `name` `` or `<name>` after blanks from `start`.
    static func quotedName(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String? {
        var position = start
        while position < end && (line[position] == ASCII.space || line[position] == ASCII.tab) { position += 1 }
        guard position < end else { return nil }
        let open = line[position]
        guard open == ASCII.doubleQuote || open == ASCII.singleQuote || open == ASCII.backquote || open == ASCII.lessThan else {
            return nil
        }
        let close = open == ASCII.lessThan ? ASCII.greaterThan : open
        guard let stop = line[(position + 1)..<end].firstIndex(of: close), stop > position + 1 else { return nil }
        return String(decoding: line[(position + 1)..<stop], as: UTF8.self)
    }

    /// `rax` … `rsp`, `rip`, and `r8` … `r15` with their `d`/`w`/`b` forms.
    private static func is64BitRegister(_ line: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> Bool {
        guard token.count >= 2, token.count <= 4, lowercased(line[token.lowerBound]) == UInt8(ascii: "r") else { return false }
        if token.count == 3 {
            for name: StaticString in ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip"]
            where equalsLowercased(line, token.lowerBound, token.upperBound, name) {
                return true
            }
        }
        var digitsEnd = token.upperBound
        let last = lowercased(line[digitsEnd - 1])
        if last == UInt8(ascii: "d") || last == UInt8(ascii: "w") || last == UInt8(ascii: "b") { digitsEnd -= 1 }
        var number = 0
        for index in (token.lowerBound + 1)..<digitsEnd {
            let digit = line[index]
            guard digit >= 0x30 && digit <= 0x39 else { return false }
            number = number * 10 + Int(digit - 0x30)
        }
        return digitsEnd > token.lowerBound + 1 && (8...15).contains(number)
    }

    /// Whether the word at `token` is `word` in any case.
    @inline(__always)
    private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ token: Range<Int>, _ word: StaticString) -> Bool {
        equalsLowercased(line, token.lowerBound, token.upperBound, word)
    }

    /// Whether `line[start..<end]` is `word` in any case.
    static func equalsLowercased(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        let bytes = word.utf8Start
        for offset in 0..<(end - start) where lowercased(line[start + offset]) != bytes[offset] { return false }
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte }
}
