/// The edit script between expected lines (holes allowed) and actual ones: the common prefix
/// and suffix are trimmed, the rest is aligned with Myers' O((N+M)·D) algorithm as long as D,
/// the number of differing lines, stays under `maxDistance`. Past it the middle is shown as
/// removed then added, which keeps any pair of outputs up to the output limit to a fraction of
/// a second (the stdlib's unbounded diff took minutes on 150,000 differing lines).
enum LineDiff {
    enum Edit: Equatable { case same(Int, Int), removed(Int), inserted(Int) }

    /// Differing lines aligned before giving up on a shortest script.
    static let maxDistance = 200

    /// The edits, and whether the middle was aligned (false: too many differences).
    static func edits(_ pattern: Pattern, _ actual: [[UInt8]]) -> (edits: [Edit], aligned: Bool) {
        let expected = pattern.expected.lines
        let equal = Equality(pattern, actual)
        var prefix = 0
        while prefix < expected.count && prefix < actual.count && equal(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix && suffix < actual.count - prefix
            && equal(expected.count - 1 - suffix, actual.count - 1 - suffix)
        {
            suffix += 1
        }
        var edits = (0..<prefix).map { Edit.same($0, $0) }
        let old = prefix..<(expected.count - suffix)
        let new = prefix..<(actual.count - suffix)
        var aligned = true
        if let middle = myers(old, new, equal) {
            edits += middle
        } else {
            aligned = false
            edits += old.map(Edit.removed) + new.map(Edit.inserted)
        }
        edits += (0..<suffix).map { Edit.same(old.upperBound + $0, new.upperBound + $0) }
        return (edits, aligned)
    }

    /// Line equality by number: identical lines share one, a line with an inline hole compares
    /// by matching.
    private struct Equality {
        let expectedIDs: [Int]
        let actualIDs: [Int]
        let pattern: Pattern
        let actual: [[UInt8]]

        init(_ pattern: Pattern, _ actual: [[UInt8]]) {
            var ids: [[UInt8]: Int] = [:]
            func id(_ line: [UInt8]) -> Int {
                if let known = ids[line] { return known }
                ids[line] = ids.count
                return ids.count - 1
            }
            expectedIDs = pattern.expected.lines.indices.map { pattern.hasHole($0) ? -1 : id(pattern.expected.lines[$0]) }
            actualIDs = actual.map(id)
            self.pattern = pattern
            self.actual = actual
        }

        func callAsFunction(_ old: Int, _ new: Int) -> Bool {
            let expected = expectedIDs[old]
            return expected >= 0 ? expected == actualIDs[new] : pattern.line(old, matches: actual[new])
        }
    }

    /// The shortest edit script of `old` into `new`, or `nil` past `maxDistance` differences.
    private static func myers(_ old: Range<Int>, _ new: Range<Int>, _ equal: Equality) -> [Edit]? {
        let n = old.count
        let m = new.count
        if n == 0 || m == 0 { return old.map(Edit.removed) + new.map(Edit.inserted) }
        let limit = min(n + m, maxDistance)
        let offset = limit + 1
        var furthest = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for distance in 0...limit {
            trace.append(furthest)
            for diagonal in stride(from: -distance, through: distance, by: 2) {
                let down =
                    diagonal == -distance || (diagonal != distance && furthest[offset + diagonal - 1] < furthest[offset + diagonal + 1])
                var x = down ? furthest[offset + diagonal + 1] : furthest[offset + diagonal - 1] + 1
                var y = x - diagonal
                while x < n && y < m && equal(old.lowerBound + x, new.lowerBound + y) {
                    x += 1
                    y += 1
                }
                furthest[offset + diagonal] = x
                if x >= n && y >= m { return backtrack(trace, distance, n, m, offset, old.lowerBound, new.lowerBound) }
            }
        }
        return nil
    }

    /// Walks the saved frontiers back from (n, m) to (0, 0).
    private static func backtrack(
        _ trace: [[Int]], _ distance: Int, _ n: Int, _ m: Int, _ offset: Int, _ oldStart: Int, _ newStart: Int
    ) -> [Edit] {
        var edits: [Edit] = []
        var x = n
        var y = m
        for step in stride(from: distance, to: 0, by: -1) {
            let furthest = trace[step]
            let diagonal = x - y
            let down = diagonal == -step || (diagonal != step && furthest[offset + diagonal - 1] < furthest[offset + diagonal + 1])
            let previous = down ? diagonal + 1 : diagonal - 1
            let previousX = furthest[offset + previous]
            let previousY = previousX - previous
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                edits.append(.same(oldStart + x, newStart + y))
            }
            if down {
                y -= 1
                edits.append(.inserted(newStart + y))
            } else {
                x -= 1
                edits.append(.removed(oldStart + x))
            }
        }
        while x > 0 && y > 0 {
            x -= 1
            y -= 1
            edits.append(.same(oldStart + x, newStart + y))
        }
        return edits.reversed()
    }
}
