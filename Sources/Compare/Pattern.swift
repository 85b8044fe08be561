/// Expected output that may contain holes: `[..]` inside a line matches any text on that line,
/// and a line that is exactly `[...]` matches any number of lines (zero included).
package struct Pattern: Sendable, Equatable {
    package var expected: TextLines

    /// What each expected line is, worked out once.
    private enum Line: Equatable { case exact, inline, anyLines }

    private let kinds: [Line]
    private let hasHoles: Bool

    package init(_ expected: TextLines) {
        self.expected = expected
        kinds = expected.lines.map { line in
            Self.isLineHole(line) ? .anyLines : Self.hasInlineHole(line) ? .inline : .exact
        }
        hasHoles = kinds.contains { $0 != .exact }
    }

    private static let inlineHole = Array("[..]".utf8)
    private static let lineHole = Array("[...]".utf8)

    /// Linear in the output: without holes a byte comparison, with them a wildcard match that
    /// backs up only to the last `[...]`.
    package func matches(_ actual: TextLines) -> Bool {
        let tailOK =
            expected.endsWithNewline == actual.endsWithNewline
            || kinds.last == .anyLines
        guard tailOK else { return false }
        guard hasHoles else { return expected.lines == actual.lines }
        return matchWithHoles(actual.lines)
    }

    /// Whether expected line `index` matches `line`.
    func line(_ index: Int, matches line: [UInt8]) -> Bool {
        switch kinds[index] {
        case .exact: expected.lines[index] == line
        case .inline: Self.lineMatches(expected.lines[index], line)
        case .anyLines: true
        }
    }

    /// Expected line `index` has a hole (so it equals lines it is not identical to).
    func hasHole(_ index: Int) -> Bool { kinds[index] != .exact }

    /// Glob matching with `[...]` as the star and every other line matching exactly one line: on
    /// a mismatch the last star takes one more line and matching resumes after it.
    private func matchWithHoles(_ lines: [[UInt8]]) -> Bool {
        var pattern = 0
        var next = 0
        var star: (pattern: Int, line: Int)?
        while next < lines.count {
            if pattern < kinds.count && kinds[pattern] == .anyLines {
                star = (pattern, next)
                pattern += 1
            } else if pattern < kinds.count && line(pattern, matches: lines[next]) {
                pattern += 1
                next += 1
            } else if let last = star {
                star = (last.pattern, last.line + 1)
                pattern = last.pattern + 1
                next = last.line + 1
            } else {
                return false
            }
        }
        while pattern < kinds.count && kinds[pattern] == .anyLines { pattern += 1 }
        return pattern == kinds.count
    }

    static func isLineHole(_ line: [UInt8]) -> Bool { line == lineHole }

    /// `[..]` somewhere in the line, by a scan for `[` (the generic `firstRange(of:)` cost more
    /// than comparing the line).
    static func hasInlineHole(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 4 else { return false }
            for index in 0...(bytes.count - 4) where bytes[index] == 0x5B {
                if bytes[index + 1] == 0x2E && bytes[index + 2] == 0x2E && bytes[index + 3] == 0x5D { return true }
            }
            return false
        }
    }

    /// Whether one expected line (possibly with `[..]`) matches one actual line.
    static func lineMatches(_ pattern: [UInt8], _ line: [UInt8]) -> Bool {
        if isLineHole(pattern) { return true }
        guard hasInlineHole(pattern) else { return pattern == line }
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
