import AsmRunTestSupport
import Compare
import Suite
import Synchronization
import Testing

@testable import Session
@testable import Support

/// `asmrun test --review` walked with scripted keys and a recorder that only notes what it is
/// asked to record: the cases shown, the keys' decisions, what is recorded (only the accepted
/// cases, once, at the end) and the summary.
struct ReviewTests {
    /// A failing case `--update` would record.
    private static func failing(_ program: String, _ name: String) -> CaseReport {
        var result = UnitFixture.result("native", .fail, message: "stdout differs")
        result.diffs = [("stdout", "--- expected\n+++ actual\n@@ -1 +1 @@\n-bye\n+hello\n")]
        return UnitFixture.report(program, name, [result])
    }

    private static let cases = [failing("a.asm", "one"), failing("a.asm", "two"), failing("b.asm", "three"), failing("c.asm", "four")]

    /// Walks `reports` with `keys`; the ids the recorder was asked for (each call a list).
    private static func walk(
        _ keys: String, _ reports: [CaseReport] = cases
    ) -> (outcome: Review.Outcome, recorded: [[String]], screen: String) {
        let console = Console(bufferingWithColor: false)
        let input = Mutex(Array(keys.utf8)[...])
        let calls = Mutex<[[String]]>([])
        let review = Review(
            console: console, diagnostics: DiagnosticsEngine(console: console),
            readKey: { input.withLock { $0.popFirst() } },
            record: { accepted in
                calls.withLock { $0.append(accepted.map(\.id)) }
                var acceptance = TestSession.Acceptance()
                for report in accepted { acceptance.results[report.id] = .init(recorded: true, message: "recorded") }
                acceptance.updatedFiles = Array(Set(accepted.map { $0.program.replacing(".asm", with: ".expect") })).sorted()
                return acceptance
            })
        let outcome = review.walk(reports)
        return (outcome, calls.withLock { $0 }, console.capturedOutput + console.capturedError)
    }

    @Test func onlyTheAcceptedCasesAreRecordedOnceAtTheEnd() {
        let (outcome, recorded, screen) = Self.walk("asra")
        #expect(recorded == [["a.asm:one", "c.asm:four"]])
        #expect(outcome.decisions.map(\.decision) == [.accepted, .skipped, .rejected, .accepted])
        #expect(outcome.unreviewed.isEmpty && !outcome.interrupted)
        #expect(screen.contains("review 1/4 a.asm:one\nFAIL  a.asm:one [native]: stdout differs\n    stdout:\n"), "\(screen)")
        #expect(screen.contains("    -bye\n    +hello\n" + Review.prompt + "accept\n"), "the console's diff, then the key: \(screen)")
        #expect(
            outcome.summaryLines == [
                "review: 2 accepted and recorded, 1 skipped, 1 rejected", "  accepted: a.asm:one — recorded",
                "  accepted: c.asm:four — recorded", "  skipped: a.asm:two", "  rejected: b.asm:three", "updated a.expect",
                "updated c.expect",
            ])
        #expect(outcome.failuresLeft(in: Self.cases) == 2)
    }

    @Test func acceptAllTakesThisCaseAndTheRest() {
        let (outcome, recorded, screen) = Self.walk("sA")
        #expect(recorded == [["a.asm:two", "b.asm:three", "c.asm:four"]])
        #expect(outcome.decisions.map(\.decision) == [.skipped, .accepted, .accepted, .accepted])
        #expect(screen.components(separatedBy: Review.prompt).count == 3, "no key is asked after A: \(screen)")
        #expect(screen.contains("review 4/4 c.asm:four\n"), "every case accepted is shown: \(screen)")
        #expect(outcome.failuresLeft(in: Self.cases) == 1)
    }

    @Test(arguments: ["aq", "a\u{4}", "a"]) func quitOrTheEndOfInputRecordsWhatWasAcceptedBefore(keys: String) {
        let (outcome, recorded, screen) = Self.walk(keys)
        #expect(recorded == [["a.asm:one"]])
        #expect(outcome.unreviewed.map(\.id) == ["a.asm:two", "b.asm:three", "c.asm:four"])
        #expect(!outcome.interrupted)
        #expect(outcome.summaryLines.first == "review: 1 accepted and recorded, 0 skipped, 0 rejected, 3 not reviewed")
        #expect(outcome.summaryLines.contains("  not reviewed: b.asm:three"))
        if keys == "a" { #expect(screen.contains(Review.prompt + "end of input: quit\n"), "\(screen)") }
    }

    @Test func ctrlCEndsTheReviewAndRecordsWhatWasAcceptedBefore() {
        let (outcome, recorded, _) = Self.walk("sa\u{3}a")
        #expect(recorded == [["a.asm:two"]])
        #expect(outcome.interrupted)
        #expect(outcome.unreviewed.map(\.id) == ["b.asm:three", "c.asm:four"])
    }

    @Test func nothingAcceptedRecordsNothing() {
        let (outcome, recorded, _) = Self.walk("srq")
        #expect(recorded.isEmpty)
        #expect(outcome.recorded.isEmpty && outcome.failuresLeft(in: Self.cases) == 4)
        let (interrupted, none, _) = Self.walk("\u{3}")
        #expect(none.isEmpty && interrupted.interrupted)
        #expect(interrupted.summaryLines.last == "review interrupted: nothing was accepted, nothing written")
    }

    @Test func helpAndUnknownKeysAskAgain() {
        let (outcome, _, screen) = Self.walk("?x\u{1b}\na", [Self.failing("a.asm", "one")])
        #expect(outcome.decisions.map(\.decision) == [.accepted])
        #expect(screen.contains("?\n  a  accept: record this case's new result"), "\(screen)")
        #expect(screen.contains("x: not a key here (? for help)\n"))
        #expect(screen.contains("\\e: not a key here (? for help)\n"), "a key is printed escaped: \(screen)")
        #expect(screen.components(separatedBy: Review.prompt).count == 6)
    }

    @Test func namesAreEscaped() {
        let (outcome, _, screen) = Self.walk("r", [Self.failing("a\u{1b}[2J.asm", "x\ny")])
        #expect(!screen.contains("\u{1b}") && !screen.contains("x\ny"), "\(screen)")
        #expect(screen.contains("review 1/1 a\\e[2J.asm:x\\ny\n"))
        #expect(outcome.summaryLines.contains("  rejected: a\\e[2J.asm:x\\ny"))
    }

    @Test func onlyFailuresUpdateWouldRecordAreReviewed() {
        let error = UnitFixture.report("e.asm", "built", [UnitFixture.result("native", .error, message: "nasm failed")])
        let pass = UnitFixture.report("p.asm", "fine", [UnitFixture.result("native", .pass)])
        var limit = Self.failing("l.asm", "big")
        limit.results[0].outputLimitExceeded = true
        let reviewable = Review.reviewable([error, Self.cases[0], pass, limit])
        #expect(reviewable.map(\.id) == ["a.asm:one"])
        let (outcome, recorded, _) = Self.walk("", [])
        #expect(recorded.isEmpty && outcome.summaryLines == ["review: no failing case to review"])
        #expect(outcome.failuresLeft(in: [error, pass]) == 1, "an error is still a failure")
    }
}
