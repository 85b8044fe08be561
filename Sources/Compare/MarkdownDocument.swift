import Support

/// A Markdown file read for its doc-tests: each fenced ```` ```nasm ```` (or ```` ```asm ````) block is
/// a program, the ```` ```output ```` block after it (before the next program block) its expected
/// stdout, and a `<!-- asmrun: … -->` comment just before it (blank lines between allowed) the
/// case's other fields in `.expect` syntax. Fences follow CommonMark: three or more backticks or
/// tildes, indented at most three spaces, closed by at least as many of the same; a block inside
/// a longer fence (an example of Markdown) is text. The bytes are kept, so rewriting an output
/// block changes nothing else.
package struct MarkdownDocument: Sendable {
    /// A fenced block: `open` is the 0-based index of its opening line, `close` of its closing
    /// line (`nil` when it runs to the end of the file).
    package struct Fence: Sendable, Equatable {
        var open: Int
        var close: Int?
        /// The info string's words (`nasm`, `ignore`).
        var words: [String]
        /// The fence's character and length, for closing it and writing a block like it.
        var marker: UInt8
        var length: Int

        var language: String { words.first?.lowercased() ?? "" }
        /// The 1-based line of the opening fence.
        package var line: Int { open + 1 }
        /// The 0-based indices of its content lines.
        /// A fence never closed runs to the end of the document, as CommonMark renders it.
        var content: Range<Int> { (open + 1)..<(close ?? documentEnd) }
        /// The document's line count.
        var documentEnd: Int
    }

    /// A program block with what belongs to it.
    package struct ProgramBlock: Sendable, Equatable {
        /// Its position among the document's program blocks (ignored ones included).
        package var index: Int
        package var code: Fence
        /// The comment's body lines with their 1-based lines, when one precedes the block.
        package var comment: [(line: Int, text: String)]
        /// The output block, when it has one.
        package var output: Fence?
        /// Its info string says `ignore`.
        package var ignored: Bool { code.words.dropFirst().contains { $0.lowercased() == "ignore" } }

        package static func == (left: ProgramBlock, right: ProgramBlock) -> Bool {
            left.index == right.index && left.code == right.code && left.output == right.output
                && left.comment.map(\.line) == right.comment.map(\.line) && left.comment.map(\.text) == right.comment.map(\.text)
        }
    }

    /// The file's bytes, as read.
    package let bytes: [UInt8]
    /// Where each line starts in `bytes` (one more entry: the end).
    private let starts: [Int]
    package private(set) var programs: [ProgramBlock] = []
    /// `<!-- asmrun: -->` comments no program block follows, by 1-based line.
    package private(set) var strayComments: [Int] = []

    /// The info-string languages that make a block a program.
    static let programLanguages: Set<String> = ["nasm", "asm"]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0a { starts.append(offset + 1) }
        if starts.last != bytes.count { starts.append(bytes.count) }
        self.starts = starts
        parse()
    }

    /// Where line `index` (0-based) starts in `bytes`; the end of the file past the last.
    package func start(of index: Int) -> Int { index < starts.count ? starts[index] : bytes.count }

    /// The number of lines.
    var lineCount: Int { starts.count - 1 }

    /// Line `index` (0-based) without its `\n` and a `\r` before it.
    package func line(_ index: Int) -> [UInt8] {
        var end = starts[index + 1]
        if end > starts[index] && bytes[end - 1] == 0x0a { end -= 1 }
        if end > starts[index] && bytes[end - 1] == 0x0d { end -= 1 }
        return Array(bytes[starts[index]..<end])
    }

    /// Line `index` as text.
    package func text(_ index: Int) -> String { String(decoding: line(index), as: UTF8.self) }

    private mutating func parse() {
        var index = 0
        var comment: (end: Int, body: [(line: Int, text: String)])?
        var current: ProgramBlock?
        var count = 0
        while index < lineCount {
            let text = self.text(index)
            if let fence = Self.opening(text, at: index) {
                let closed = closing(fence, from: index + 1)
                let block = Fence(
                    open: index, close: closed, words: fence.words, marker: fence.marker, length: fence.length,
                    documentEnd: lineCount)
                if Self.programLanguages.contains(block.language) {
                    if let done = current { programs.append(done) }
                    let attached = comment.flatMap { found in isBlank(from: found.end + 1, to: index) ? found.body : nil }
                    if let comment, attached == nil { strayComments.append(comment.end + 1) }
                    current = ProgramBlock(index: count, code: block, comment: attached ?? [], output: nil)
                    comment = nil
                    count += 1
                } else if block.language == "output", current != nil, current?.output == nil {
                    current?.output = block
                }
                index = (closed ?? lineCount - 1) + 1
                continue
            }
            if let found = commentBody(from: index) {
                if let stray = comment { strayComments.append(stray.end + 1) }
                comment = found
                index = found.end + 1
                continue
            }
            index += 1
        }
        if let done = current { programs.append(done) }
        if let stray = comment { strayComments.append(stray.end + 1) }
    }

    /// ```` ```nasm ignore ```` → the fence's marker, length and info words.
    private static func opening(_ text: String, at index: Int) -> (marker: UInt8, length: Int, words: [String])? {
        let bytes = Array(text.utf8)
        let indent = bytes.prefix { $0 == 0x20 }.count
        guard indent <= 3, indent < bytes.count, bytes[indent] == 0x60 || bytes[indent] == 0x7e else { return nil }
        let marker = bytes[indent]
        let length = bytes[indent...].prefix { $0 == marker }.count
        guard length >= 3 else { return nil }
        let info = String(decoding: bytes[(indent + length)...], as: UTF8.self)
        if marker == 0x60 && info.contains("`") { return nil }
        return (marker, length, info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "}" }).map(String.init))
    }

    /// The index of the line that closes a fence opened before `from`.
    private func closing(_ fence: (marker: UInt8, length: Int, words: [String]), from: Int) -> Int? {
        for index in from..<lineCount {
            let bytes = line(index)
            let indent = bytes.prefix { $0 == 0x20 }.count
            guard indent <= 3 else { continue }
            let run = bytes[indent...].prefix { $0 == fence.marker }.count
            guard run >= fence.length else { continue }
            if bytes[(indent + run)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return index }
        }
        return nil
    }

    /// `<!-- asmrun: … -->` starting at line `index`: its body lines and the line it ends on.
    private func commentBody(from index: Int) -> (end: Int, body: [(line: Int, text: String)])? {
        let first = text(index).trimmingBlanks()
        let opener = "<!-- asmrun:"
        guard first.hasPrefix(opener) else { return nil }
        var body: [(line: Int, text: String)] = []
        var rest = String(first.dropFirst(opener.count))
        var at = index
        while true {
            if let end = rest.firstRange(of: "-->") {
                let last = String(rest[..<end.lowerBound]).trimmingBlanks()
                if !last.isEmpty { body.append((at + 1, last)) }
                return (at, body)
            }
            if !rest.trimmingBlanks().isEmpty { body.append((at + 1, at == index ? rest.trimmingBlanks() : rest)) }
            at += 1
            guard at < lineCount else { return (at - 1, body) }
            rest = text(at)
        }
    }

    private func isBlank(from start: Int, to end: Int) -> Bool {
        (start..<max(start, end)).allSatisfy { text($0).trimmingBlanks().isEmpty }
    }

    /// The code of a program block, one string per line.
    package func code(of block: ProgramBlock) -> [String] { block.code.content.map(text) }

    /// The output block's lines.
    package func output(of block: ProgramBlock) -> [[UInt8]]? { block.output.map { $0.content.map(line) } }
}
