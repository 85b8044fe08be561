import Testing

@testable import Compare

/// `--update` finds holes from runs that differ (issue 33, item 2), without running anything.
@Suite struct HoleInferenceTests {
    private func text(_ lines: String...) -> TextLines { TextLines(lines: lines.map { Array($0.utf8) }) }
    private func lines(_ merged: HoleInference.Merged) -> [String] { merged.text.lines.map { String(decoding: $0, as: UTF8.self) } }

    @Test func runsThatAgreeGetNoHole() {
        let merged = HoleInference.merge([text("a", "b"), text("a", "b")])
        #expect(merged == HoleInference.Merged(text: text("a", "b"), holeLines: 0, wholeLines: []))
    }

    @Test func aDifferingWordBecomesAHoleAndTheRestIsKept() {
        let merged = HoleInference.merge([
            text("pid: 1234 (ok)", "tsc: 88812", "same"), text("pid: 1299 (ok)", "tsc: 91", "same"),
            text("pid: 77 (ok)", "tsc: 88899", "same"),
        ])
        #expect(lines(merged) == ["pid: [..] (ok)", "tsc: [..]", "same"])
        #expect(merged.holeLines == 2 && merged.wholeLines.isEmpty)
    }

    @Test func wordsAndCharactersAreNeverCut() {
        let merged = HoleInference.merge([text("took 12 ms, é1"), text("took 2 ms, é2")])
        #expect(lines(merged) == ["took [..]"], "the ends differ too: one hole from the first difference")
        let accents = HoleInference.merge([text("é"), text("è")])
        #expect(lines(accents) == ["[..]"], "two-byte characters that share their first byte")
        #expect(accents.wholeLines == [1])
    }

    @Test func aWholeLineHoleIsSaid() {
        let merged = HoleInference.merge([text("a", "0x7ffd1234", "z"), text("a", "0x7ffe9999", "z")])
        #expect(lines(merged) == ["a", "[..]", "z"])
        #expect(merged.wholeLines == [2])
    }

    @Test func runsOfDifferentLengthsShareTheirEnds() {
        let merged = HoleInference.merge([text("start", "x", "end"), text("start", "x", "y", "end")])
        #expect(lines(merged) == ["start", "x", "[...]", "end"])
        #expect(merged.wholeLines == [3])
        #expect(Pattern(merged.text).matches(text("start", "x", "end")))
    }

    @Test func theMergeMatchesEveryRun() {
        let runs = [text("[..] 1", "b"), text("[..] 2", "b"), text("[..] 3", "b")]
        let merged = HoleInference.merge(runs)
        #expect(lines(merged) == ["[..] [..]", "b"])
        #expect(runs.allSatisfy { Pattern(merged.text).matches($0) })
    }
}
