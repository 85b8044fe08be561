/// Names asmrun prints (paths, case and runner names, option values) come from users and file
/// systems: a control character in one could clear the screen, move the cursor or start a forged
/// line (`PASS  everything.asm`, a second `::error`). Printed text escapes them the way `.expect`
/// files escape bytes: `\n`, `\r`, `\t`, `\e`, `\xNN`, and `\u{NNNN}` for the Unicode controls
/// that reorder or break lines (C1, U+2028/U+2029, bidirectional overrides). Backslashes stay as
/// they are, so ordinary names print unchanged.
package enum DisplayText {
    /// `text` with every control character escaped; one line whatever it held.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{1b}": output += "\\e"
            default:
                let hex = String(scalar.value, radix: 16)
                output += scalar.value < 0x80 ? "\\x" + hex.leftPadded(to: 2) : "\\u{" + hex.leftPadded(to: 4) + "}"
            }
        }
        return output
    }

    /// Each line of `text` escaped on its own, so the line structure asmrun made stays.
    package static func escapeLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && needsEscape($0) }) else { return text }
        // Split on the scalar: as a Character, "\r\n" is not "\n".
        return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escape(String(String.UnicodeScalarView($0))) }.joined(separator: "\n")
    }

    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7f..<0xa0: true
        case 0x200e, 0x200f, 0x2028, 0x2029, 0x202a...0x202e, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// The string with control characters escaped for printing (see `DisplayText`).
    package var displayEscaped: String { DisplayText.escape(self) }

    /// Left-pads with zeros to `width` characters.
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
