import AsmRunTestSupport
import Foundation
import Report
import Support
import Testing

@testable import Suite

/// The report renderers on hand-made reports: JSON, JUnit, Gradescope and the step summary.
struct ReportRendererTests {
    private static let reports = [
        UnitFixture.report("a.asm", "one", [UnitFixture.result("native", .pass, duration: 0.25)]),
        UnitFixture.report("a.asm", "two", [UnitFixture.result("native", .fail, message: "stdout differs")]),
        UnitFixture.report("b.asm", "three", [UnitFixture.result("native", .error, message: "nasm failed")]),
    ]
    private static let outcome = SuiteOutcome(reports: reports, complete: true, updatedFiles: [])

    private static var tally: Tally {
        var tally = Tally()
        reports.forEach { tally.add($0) }
        return tally
    }

    @Test func junitHasASuitePerProgramAndACasePerRunner() {
        let xml = JUnitReport.render(Self.outcome, seconds: 2)
        #expect(xml.contains("<testsuites name=\"asmrun\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\" time=\"2.000\">"))
        #expect(xml.components(separatedBy: "<testsuite ").count == 3)
        #expect(xml.contains("<testcase classname=\"a.asm\" name=\"one [native]\" time=\"0.250\"/>"))
        #expect(xml.contains("<failure type=\"fail\" message=\"stdout differs\">"))
        #expect(xml.contains("<error type=\"error\" message=\"nasm failed\">"))
    }

    @Test func jsonHoldsEveryResultAndTheCounts() throws {
        let text = try JSONReport.render(Self.outcome, seconds: 2, scores: Scores(), expected: 3, skippedFiles: 1)
        let json = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["passed"] as? Int == 1 && summary["failed"] as? Int == 1 && summary["errors"] as? Int == 1)
        #expect(summary["not_run"] as? Int == 0 && summary["skipped_files"] as? Int == 1)
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["a.asm:one", "a.asm:two", "b.asm:three"])
        #expect(results.map { $0["status"] as? String } == ["pass", "fail", "error"])
    }

    @Test func gradescopeScoresWhatItIsGiven() throws {
        let text = try GradescopeReport.render(Scores(), tally: Self.tally, seconds: 2, remarks: ["grading stopped"])
        let json = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["execution_time"] as? Int == 2)
        #expect(json["output"] as? String == "asmrun: 0/0 points; 1 passed, 2 failed\ngrading stopped")
    }

    @Test func theStepSummaryTablesTheFailures() {
        let text = StepSummary.render(Self.reports, tally: Self.tally, complete: false, seconds: 2)
        #expect(text.hasPrefix("### asmrun test: 1 passed, 2 failed\n\n**Run incomplete:** not every case ran.\n\n"))
        #expect(text.contains("| fail | a.asm:two | native | stdout differs |\n"))
        #expect(text.contains("| error | b.asm:three | native | nasm failed |\n"))
        #expect(!text.contains("a.asm:one"))
        #expect(text.hasSuffix("Time: 2.00 s\n\n"))
    }
}
