extension MarkdownDocument {
    /// The file with `block`'s output block holding `lines`, every other byte as it was: the
    /// block's content is replaced (its fences kept, unless a line would close them), or a new
    /// ```` ```output ```` block is added after the program block, a blank line between. `nil`
    /// when the program or output block is not closed (there is no end to write after).
    package func replacingOutput(of block: ProgramBlock, with lines: [String]) -> [UInt8]? {
        guard let close = block.code.close else { return nil }
        let newline: [UInt8] = lineEnding(at: block.code.open)
        let body = lines.flatMap { Array($0.utf8) + newline }
        if let output = block.output {
            guard let end = output.close else { return nil }
            if !lines.contains(where: { closes($0, marker: output.marker, length: output.length) }) {
                return Array(bytes[..<start(of: output.open + 1)]) + body + Array(bytes[start(of: end)...])
            }
            let whole = fenced(lines, newline: newline)
            return Array(bytes[..<start(of: output.open)]) + whole + Array(bytes[start(of: end + 1)...])
        }
        let after = start(of: close + 1)
        // A closing fence on the last line without a newline gets one first.
        let joint = after == bytes.count && bytes.last != 0x0a ? newline : []
        return Array(bytes[..<after]) + joint + newline + fenced(lines, newline: newline) + Array(bytes[after...])
    }

    /// ```` ```output ````, the lines, and a fence longer than any run of backticks they start with.
    private func fenced(_ lines: [String], newline: [UInt8]) -> [UInt8] {
        let longest = lines.map { line in line.drop { $0 == " " }.prefix { $0 == "`" }.count }.max() ?? 0
        let fence = Array(repeating: UInt8(ascii: "`"), count: max(3, longest + 1))
        return fence + Array("output".utf8) + newline + lines.flatMap { Array($0.utf8) + newline } + fence + newline
    }

    private func closes(_ line: String, marker: UInt8, length: Int) -> Bool {
        let bytes = Array(line.utf8)
        let indent = bytes.prefix { $0 == 0x20 }.count
        return indent <= 3 && bytes[indent...].prefix { $0 == marker }.count >= length
    }

    /// `\r\n` when line `index` ends so, else `\n`.
    private func lineEnding(at index: Int) -> [UInt8] {
        let end = start(of: index + 1)
        return end >= 2 && bytes[end - 1] == 0x0a && bytes[end - 2] == 0x0d ? [0x0d, 0x0a] : [0x0a]
    }
}
