/// A unified diff (`--- expected`, `+++ actual`, `@@` hunks, 3 lines of context) over the edit
/// script of `LineDiff`, where an expected line with holes equals every line it matches.
/// Non-printable bytes are shown escaped; long lines and long diffs are cut.
enum UnifiedDiff {
    private typealias Edit = LineDiff.Edit

    /// Bytes of one line shown before it is cut (a megabyte-long line helps nobody).
    static let maxLineBytes = 512
    /// Diff lines shown before the rest is summarized.
    static let maxLines = 400

    /// The diff of `expected` against `actual`; empty when they match.
    static func make(
        expected: TextLines, actual: TextLines, context: Int = 3, labels: (String, String) = ("expected", "actual")
    ) -> String {
        let (edits, aligned) = LineDiff.edits(Pattern(expected), actual.lines)
        let tailDiffers = expected.endsWithNewline != actual.endsWithNewline
        guard edits.contains(where: { if case .same = $0 { false } else { true } }) || tailDiffers else {
            return ""
        }
        var output = "--- \(labels.0)\n+++ \(labels.1)\n"
        if !aligned {
            output += "(more than \(LineDiff.maxDistance) lines differ: not aligned line by line; the first of each side follow)\n"
        }
        var shown = 0
        let all = hunks(edits, context: context, forceLast: tailDiffers)
        for (index, hunk) in all.enumerated() {
            if shown + hunk.count > maxLines {
                let budget = maxLines - shown
                if budget >= 20 { output += render(first(budget, of: edits[hunk]), expected, actual) }
                let rest = all[index...].reduce(0) { $0 + $1.count } - (budget >= 20 ? budget : 0)
                output += "… diff cut here: \(max(rest, 0)) more lines in \(all.count - index) hunks\n"
                break
            }
            output += render(Array(edits[hunk]), expected, actual)
            shown += hunk.count
        }
        return output
    }

    /// The first lines of a hunk too long to show: half the budget of each side, context kept.
    private static func first(_ budget: Int, of hunk: ArraySlice<Edit>) -> [Edit] {
        var removed = 0
        var inserted = 0
        return hunk.filter { edit in
            switch edit {
            case .same: return removed < budget / 2 && inserted < budget / 2
            case .removed:
                removed += 1
                return removed <= budget / 2
            case .inserted:
                inserted += 1
                return inserted <= budget / 2
            }
        }
    }

    private static func hunks(_ edits: [Edit], context: Int, forceLast: Bool) -> [Range<Int>] {
        var changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        if forceLast, let last = edits.indices.last, changed.last != last { changed.append(last) }
        var ranges: [Range<Int>] = []
        for index in changed {
            let lower = max(0, index - context)
            let upper = min(edits.count, index + context + 1)
            if let last = ranges.last, lower <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, upper)
            } else {
                ranges.append(lower..<upper)
            }
        }
        return ranges
    }

    private static func render(_ edits: [Edit], _ expected: TextLines, _ actual: TextLines) -> String {
        var body = ""
        var oldStart: Int?
        var newStart: Int?
        var oldCount = 0
        var newCount = 0
        func line(_ marker: String, _ bytes: [UInt8], last: Bool, endsWithNewline: Bool) {
            if bytes.count > maxLineBytes {
                body += marker + TextLines.escape(Array(bytes.prefix(maxLineBytes)))
                body += "… (\(bytes.count - maxLineBytes) more bytes on this line)\n"
            } else {
                body += marker + TextLines.escape(bytes) + "\n"
            }
            if last && !endsWithNewline { body += "\\ No newline at end of file\n" }
        }
        for edit in edits {
            switch edit {
            case .same(let old, let new):
                oldStart = oldStart ?? old
                newStart = newStart ?? new
                oldCount += 1
                newCount += 1
                let oldLast = old == expected.lines.count - 1
                let newLast = new == actual.lines.count - 1
                if oldLast && newLast && expected.endsWithNewline != actual.endsWithNewline {
                    line("-", expected.lines[old], last: true, endsWithNewline: expected.endsWithNewline)
                    line("+", actual.lines[new], last: true, endsWithNewline: actual.endsWithNewline)
                } else {
                    line(" ", actual.lines[new], last: newLast, endsWithNewline: actual.endsWithNewline)
                }
            case .removed(let old):
                oldStart = oldStart ?? old
                oldCount += 1
                line("-", expected.lines[old], last: old == expected.lines.count - 1, endsWithNewline: expected.endsWithNewline)
            case .inserted(let new):
                newStart = newStart ?? new
                newCount += 1
                line("+", actual.lines[new], last: new == actual.lines.count - 1, endsWithNewline: actual.endsWithNewline)
            }
        }
        let old = oldCount == 0 ? "\(oldStart ?? 0),0" : oldCount == 1 ? "\((oldStart ?? 0) + 1)" : "\((oldStart ?? 0) + 1),\(oldCount)"
        let new = newCount == 0 ? "\(newStart ?? 0),0" : newCount == 1 ? "\((newStart ?? 0) + 1)" : "\((newStart ?? 0) + 1),\(newCount)"
        return "@@ -\(old) +\(new) @@\n" + body
    }
}
