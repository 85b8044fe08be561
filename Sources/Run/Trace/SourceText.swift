import Support

/// A source line as a trace shows it: without its comment and surrounding blanks.
enum SourceText {
    static func line(_ number: Int, of path: String) -> String {
        guard let bytes = try? Files.read(path) else { return "" }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return "" }
        return withoutComment(String(decoding: lines[number - 1], as: UTF8.self))
    }

    /// `add eax, 1 ; count` → `add eax, 1`; a `;` inside quotes stays.
    static func withoutComment(_ text: String) -> String {
        var quote: Character?
        var kept = ""
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" || character == "`" {
                quote = character
            } else if character == ";" {
                break
            }
            kept.append(character)
        }
        return String(kept.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " "))
    }
}
