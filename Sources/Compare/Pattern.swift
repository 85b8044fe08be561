/// Expected output that may contain holes: `[..]` inside a line matches any text on that line,
/// and a line that is exactly `[...]` matches any number of lines (zero included).
package struct Pattern: Sendable, Equatable {
    package var expected: TextLines

    package init(_ expected: TextLines) { self.expected = expected }

    private static let inlineHole = Array("[..]".utf8)
    private static let lineHole = Array("[...]".utf8)

    package func matches(_ actual: TextLines) -> Bool {
        let tailOK =
            expected.endsWithNewline == actual.endsWithNewline
            || expected.lines.last.map(Self.isLineHole) == true
        return tailOK && Self.matchLines(expected.lines[...], actual.lines[...])
    }

    static func isLineHole(_ line: [UInt8]) -> Bool { line == lineHole }

    private static func matchLines(_ pattern: ArraySlice<[UInt8]>, _ lines: ArraySlice<[UInt8]>) -> Bool {
        // Dynamic programming over (pattern index, line index): linear in practice, no blow-up.
        let p = Array(pattern)
        let l = Array(lines)
        var reachable = [Bool](repeating: false, count: l.count + 1)
        reachable[0] = true
        for item in p {
            var next = [Bool](repeating: false, count: l.count + 1)
            if isLineHole(item) {
                var seen = false
                for index in 0...l.count {
                    seen = seen || reachable[index]
                    next[index] = seen
                }
            } else {
                for index in 0..<l.count where reachable[index] && lineMatches(item, l[index]) {
                    next[index + 1] = true
                }
            }
            reachable = next
        }
        return reachable[l.count]
    }

    /// Whether one expected line (possibly with `[..]`) matches one actual line.
    package static func lineMatches(_ pattern: [UInt8], _ line: [UInt8]) -> Bool {
        if isLineHole(pattern) { return true }
        guard pattern.firstRange(of: inlineHole) != nil else { return pattern == line }
        let pieces = pattern.split(separator: inlineHole, omittingEmptySubsequences: false)
        var rest = line[...]
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.starts(with: piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 {
                return rest.count >= piece.count && rest.suffix(piece.count).elementsEqual(piece)
            } else {
                guard let range = rest.firstRange(of: piece) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return rest.isEmpty
    }
}
