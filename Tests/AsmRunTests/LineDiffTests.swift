import Testing

@testable import Compare

/// The diff and the matcher on random inputs, against simple oracles: the standard library's
/// Myers difference for minimality, a dynamic-programming matcher for holes.
@Suite struct LineDiffTests {
    /// A deterministic generator, so a failure reproduces.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func lines(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    @Test func editScriptsReproduceTheOutputAndAreShortest() {
        var random = Generator(state: 42)
        for _ in 0..<400 {
            let old = (0..<random.next(12)).map { _ in ["a", "b", "c", "d"][random.next(4)] }
            let new = (0..<random.next(12)).map { _ in ["a", "b", "c", "d"][random.next(4)] }
            let (edits, aligned) = LineDiff.edits(Pattern(TextLines(lines: lines(old))), lines(new))
            #expect(aligned)
            var rebuilt: [String] = []
            var removed: [Int] = []
            for edit in edits {
                switch edit {
                case .same(let o, let n):
                    #expect(old[o] == new[n])
                    rebuilt.append(new[n])
                case .removed(let o): removed.append(o)
                case .inserted(let n): rebuilt.append(new[n])
                }
            }
            #expect(rebuilt == new, "\(old) -> \(new)")
            let changes = edits.filter { if case .same = $0 { false } else { true } }.count
            #expect(changes == new.difference(from: old).count, "shortest: \(old) -> \(new)")
        }
    }

    @Test func tooManyDifferencesFallBackToTheFirstLinesOfEachSide() {
        let old = TextLines(lines: (0..<150_000).map { Array("old \($0)".utf8) })
        let new = TextLines(lines: (0..<150_000).map { Array("new \($0)".utf8) })
        let diff = UnifiedDiff.make(expected: old, actual: new)
        #expect(diff.contains("(more than 200 lines differ: not aligned line by line"))
        #expect(diff.contains("-old 0\n") && diff.contains("+new 0\n"))
        #expect(diff.split(separator: "\n").count < 420)
        // One line changed in the middle of a long output: the common ends are trimmed.
        var one = old.lines
        one[75_000] = Array("changed".utf8)
        let small = UnifiedDiff.make(expected: old, actual: TextLines(lines: one))
        #expect(small.contains("@@ -74998,7 +74998,7 @@\n old 74997\n old 74998\n old 74999\n-old 75000\n+changed\n"))
    }

    @Test func holesMatchLikeTheExhaustiveMatcher() {
        var random = Generator(state: 7)
        let pieces = ["a", "b", "[...]", "a[..]", "[..]b"]
        for _ in 0..<2000 {
            let pattern = TextLines(lines: lines((0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }))
            let actual = TextLines(lines: lines((0..<random.next(7)).map { _ in ["a", "b", "ab", "ba"][random.next(4)] }))
            #expect(Pattern(pattern).matches(actual) == exhaustive(pattern.lines, actual.lines), "\(pattern) ~ \(actual)")
        }
    }

    /// Every way to split the lines among the pattern's lines, tried.
    private func exhaustive(_ pattern: [[UInt8]], _ lines: [[UInt8]]) -> Bool {
        guard let first = pattern.first else { return lines.isEmpty }
        if Pattern.isLineHole(first) {
            return (0...lines.count).contains { exhaustive(Array(pattern.dropFirst()), Array(lines.dropFirst($0))) }
        }
        guard let line = lines.first, Pattern.lineMatches(first, line) else { return false }
        return exhaustive(Array(pattern.dropFirst()), Array(lines.dropFirst()))
    }
}
