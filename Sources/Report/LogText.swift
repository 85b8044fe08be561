import Support

/// Text from a program or its build (nasm's `%warning`, a diff of its output, a crash report's
/// source line) in the log asmrun prints: no line of it may pass for asmrun's own (a verdict,
/// `PASS  x.asm:…`) or, under GitHub Actions, for a workflow command. GitHub's runner obeys
/// `::name …::data` after leading blanks and the older `##[name]` anywhere in a line, so
/// indenting is not enough there: the text goes between `::stop-commands::TOKEN` and
/// `::TOKEN::`, with a token the program never sees.
enum LogText {
    /// The labels asmrun's verdict lines start with.
    static let verdicts = ["PASS", "FAIL", "ERROR", "TIME", "SKIP", "XFAIL", "INTR", "DIVERGE"]

    /// A tool's output, its control characters escaped, with every line indented but the
    /// tool's own `file:line:` diagnostics (kept at the margin for editors' and CI's problem
    /// matchers), unless one of those starts like a verdict or a command.
    static func toolOutput(_ text: String) -> String {
        DisplayText.escapeLines(text).split(separator: "\n", omittingEmptySubsequences: false)
            .map { isDiagnostic($0) ? String($0) : "    " + $0 }.joined(separator: "\n")
    }

    /// `PATH:LINE:` at the margin, PATH not starting with a blank, `:` or `#` (a command) nor
    /// with a verdict's label.
    static func isDiagnostic(_ line: Substring) -> Bool {
        guard let first = line.first, !" \t:#".contains(first) else { return false }
        if verdicts.contains(where: { line.hasPrefix($0 + " ") }) { return false }
        guard let colon = line.firstIndex(of: ":") else { return false }
        let digits = line[line.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line[line.index(after: colon)...].dropFirst(digits.count).first == ":"
    }

    /// `text` fenced so that GitHub's runner obeys no command in it, when it holds anything that
    /// could be one; as it is otherwise (no fence lines in an ordinary log).
    static func fenced(_ text: String, token: String) -> String {
        guard text.contains("::") || text.contains("##[") else { return text }
        return "::stop-commands::\(token)\n" + text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "::\(token)::\n"
    }

    /// A fresh token: 128 random bits in hex, which no program output can guess.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }
}
