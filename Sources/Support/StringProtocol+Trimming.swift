extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`).
    package func trimmingBlanks() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// Without leading and trailing white space, newlines included (`.whitespacesAndNewlines`).
    package func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ strip: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !strip($0) }), let last = lastIndex(where: { !strip($0) }) else { return "" }
        return String(self[first...last])
    }
}
