/// Splitting and quoting of shell-like words, for `--runner 'CMD ARGS'` and `args:` lines.
package enum ShellWords {
    /// An error in a quoted string.
    struct UnterminatedQuote: Error, CustomStringConvertible {
        /// The text that was being split.
        let text: String
        var description: String { "unterminated quote in \(text)" }
    }

    /// Splits `a "b c" 'd'` into `["a", "b c", "d"]`, with backslash escapes outside single quotes.
    package static func split(_ text: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil || escaped { throw UnterminatedQuote(text: text) }
        if inWord { words.append(current) }
        return words
    }

    /// Quotes a word for a POSIX shell only when it needs it.
    package static func quote(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// `quote` for a command printed to a terminal: a word holding a control character
    /// (`DisplayText`'s) is quoted `$'…'` with `\xNN` escapes (bash, zsh, ksh, POSIX.1-2024),
    /// so the line prints as it runs.
    package static func quoteForTerminal(_ word: String) -> String {
        guard word.unicodeScalars.contains(where: DisplayText.needsEscape) else { return quote(word) }
        var quoted = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "'": quoted += "\\'"
            case _ where DisplayText.needsEscape(scalar):
                for byte in String(scalar).utf8 { quoted += "\\x" + String(byte, radix: 16).leftPadded(to: 2) }
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }
}
