/// `--update`'s holes, found rather than hand-written: the outputs of two or three runs of one
/// case, merged into one expectation where they differ. A line that differs keeps the text all
/// runs share at its start and end, cut back to whole words (so `pid: 1234` and `pid: 1299` give
/// `pid: [..]`, not `pid: 12[..]`), and `[..]` between; when the runs print different numbers
/// of lines, the lines between those they share at the start and the end become one `[...]`.
package enum HoleInference {
    package struct Merged: Sendable, Equatable {
        package var text: TextLines
        /// Lines of `text` with a hole.
        package var holeLines: Int
        /// 1-based lines of `text` that are a hole and nothing else (`[..]`, `[...]`): any line
        /// passes there, which deserves a look before it is accepted.
        package var wholeLines: [Int]
    }

    /// The runs' outputs merged; the first run's output, unchanged, when they agree or when the
    /// merge would not match every one of them (a run printed `[..]` itself).
    package static func merge(_ runs: [TextLines]) -> Merged {
        let first = runs[0]
        let unchanged = Merged(text: first, holeLines: 0, wholeLines: [])
        guard runs.contains(where: { $0 != first }) else { return unchanged }
        var merged =
            runs.allSatisfy({ $0.lines.count == first.lines.count })
            ? lineByLine(runs) : spanning(runs)
        merged.text.endsWithNewline = first.endsWithNewline
        guard runs.allSatisfy({ Pattern(merged.text).matches($0) }) else { return unchanged }
        return merged
    }

    private static func lineByLine(_ runs: [TextLines]) -> Merged {
        var merged = Merged(text: TextLines(lines: []), holeLines: 0, wholeLines: [])
        for index in runs[0].lines.indices {
            let variants = runs.map { $0.lines[index] }
            guard variants.contains(where: { $0 != variants[0] }) else {
                merged.text.lines.append(variants[0])
                continue
            }
            let line = holed(variants)
            merged.holeLines += 1
            if line == hole { merged.wholeLines.append(index + 1) }
            merged.text.lines.append(line)
        }
        return merged
    }

    /// Runs of different lengths: the lines all share at the start and at the end, `[...]` between.
    private static func spanning(_ runs: [TextLines]) -> Merged {
        let shortest = runs.map(\.lines.count).min() ?? 0
        var head = 0
        while head < shortest && runs.allSatisfy({ $0.lines[head] == runs[0].lines[head] }) { head += 1 }
        var tail = 0
        while tail < shortest - head
            && runs.allSatisfy({ $0.lines[$0.lines.count - 1 - tail] == runs[0].lines[runs[0].lines.count - 1 - tail] })
        {
            tail += 1
        }
        let lines = Array(runs[0].lines[..<head]) + [Array("[...]".utf8)] + Array(runs[0].lines.suffix(tail))
        return Merged(text: TextLines(lines: lines), holeLines: 1, wholeLines: [head + 1])
    }

    private static let hole = Array("[..]".utf8)

    /// One line that differs between runs: what they share at both ends, whole words only.
    private static func holed(_ variants: [[UInt8]]) -> [UInt8] {
        let first = variants[0]
        var prefix = first.count
        for other in variants.dropFirst() { prefix = min(prefix, zip(first, other).prefix { $0 == $1 }.count) }
        while prefix > 0 && (isWordByte(first[prefix - 1]) || isContinuation(first, at: prefix)) { prefix -= 1 }
        let room = variants.map { $0.count - prefix }.min() ?? 0
        var suffix = room
        for other in variants.dropFirst() {
            suffix = min(suffix, zip(first.reversed(), other.reversed()).prefix { $0 == $1 }.count)
        }
        while suffix > 0 && (isWordByte(first[first.count - suffix]) || isContinuation(first, at: first.count - suffix)) {
            suffix -= 1
        }
        return Array(first[..<prefix]) + hole + Array(first[(first.count - suffix)...])
    }

    /// Letters, digits and `_`, and any byte of a multi-byte character: a hole never cuts one.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5f
    }

    /// Position `index` of `line` is inside a UTF-8 character, not at its start.
    private static func isContinuation(_ line: [UInt8], at index: Int) -> Bool {
        index < line.count && line[index] & 0xc0 == 0x80
    }
}
