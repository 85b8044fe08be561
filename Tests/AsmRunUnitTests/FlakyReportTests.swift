import AsmRunTestSupport
import Compare
import Foundation
import Processes
import Suite
import Testing

@testable import Report
@testable import Support

/// `--retries` in every report: a case that passed on a retry is FLAKY (never a pass) with its
/// first failure shown; one that failed every attempt lists its retries.
struct FlakyReportTests {
    /// A failed attempt: stdout differs, with what the program printed.
    private static var firstFailure: RunnerResult {
        var result = UnitFixture.result("native", .fail, message: "stdout differs")
        result.diffs = [("stdout", "-expected\n+got 1\n")]
        result.observation = Observation(stdout: TextLines(Array("got 1\n".utf8)), stderr: TextLines([]), status: .exited(0))
        result.location = FileLocation("a.expect", line: 3)
        return result
    }

    private static let finding = "a.asm:7: ABI check: rsp is not a multiple of 16 at `call printf`"

    private static var flaky: RunnerResult {
        var result = UnitFixture.result("native", .flaky, message: "passed only on attempt 2; attempt 1: stdout differs")
        result.failedAttempts = [firstFailure]
        result.location = firstFailure.location
        return result
    }

    private static var failedThrice: RunnerResult {
        var result = UnitFixture.result("native", .fail, message: "stdout differs")
        var timeout = UnitFixture.result("native", .timeout, message: "ran past 10 s")
        timeout.diffs = [("status", "timed out\n")]
        timeout.abiFindings = [Self.finding]
        result.failedAttempts = [timeout, firstFailure]
        return result
    }

    private static let reports = [
        UnitFixture.report("a.asm", "one", [flaky]),
        UnitFixture.report("a.asm", "two", [failedThrice]),
        UnitFixture.report("a.asm", "three", [UnitFixture.result("native", .pass)]),
    ]

    private static var tally: Tally {
        var tally = Tally()
        reports.forEach { tally.add($0) }
        return tally
    }

    @Test func theTallyCountsFlakyApartFromPassesAndFailures() {
        #expect(Self.tally.passed == 1 && Self.tally.failed == 1 && Self.tally.flaky == 1 && Self.tally.results == 3)
        #expect(Self.tally.summaryLine == "1 passed, 1 failed, 1 flaky")
    }

    @Test func junitWritesFlakyFailuresAndRerunFailuresAsSurefireDoes() throws {
        let xml = JUnitReport.render(SuiteOutcome(reports: Self.reports, complete: true), seconds: 1)
        #expect(xml.contains("failures=\"1\" errors=\"0\""), "a flaky case is a passing test case")
        let flaky = try #require(xml.components(separatedBy: "<testcase ").first { $0.hasPrefix("classname=\"a.asm\" name=\"one") })
        #expect(!flaky.contains("<failure"))
        #expect(
            flaky.contains(
                "<flakyFailure type=\"fail\" message=\"stdout differs\">\n        <stackTrace>stdout differs\nstdout:\n-expected\n+got 1\n</stackTrace>\n"
                    + "        <system-out>got 1\n</system-out>\n      </flakyFailure>\n    </testcase>"))
        let failed = try #require(xml.components(separatedBy: "<testcase ").first { $0.hasPrefix("classname=\"a.asm\" name=\"two") })
        let failure = try #require(failed.range(of: "<failure type=\"fail\" message=\"stdout differs\">"))
        let rerun = try #require(failed.range(of: "<rerunFailure type=\"timeout\" message=\"ran past 10 s\">"))
        #expect(failure.upperBound < rerun.lowerBound && failed.components(separatedBy: "<rerunFailure ").count == 3)
    }

    @Test func jsonGivesTheStatusTheAttemptsAndTheFailures() throws {
        let text = try JSONReport.render(
            SuiteOutcome(reports: Self.reports, complete: true), seconds: 1, scores: Scores(), expected: 3, skippedFiles: 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((json["summary"] as? [String: Any])?["flaky"] as? Int == 1)
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.map { $0["status"] as? String } == ["flaky", "fail", "pass"])
        #expect(results.map { $0["attempts"] as? Int } == [2, 3, nil])
        let first = try #require((results[0]["failed_attempts"] as? [[String: Any]])?.first)
        #expect(first["status"] as? String == "fail" && first["stdout"] as? String == "got 1\n")
        #expect((first["diffs"] as? [String: String])?["stdout"] == "-expected\n+got 1\n")
        let retried = try #require(results[1]["failed_attempts"] as? [[String: Any]])
        #expect(retried.map { $0["abi_checks"] as? [String] } == [[Self.finding], nil], "each attempt's own findings")
    }

    @Test func reportMergeCarriesFlakyThrough() throws {
        let text = try JSONReport.render(
            SuiteOutcome(reports: Self.reports, complete: true), seconds: 1, scores: Scores(), expected: 3, skippedFiles: 0,
            run: JSONReport.Run(id: "r", shard: nil))
        let merged = try JSONReport.merge([("whole.json", Array(text.utf8))])
        let results = merged.reports.flatMap(\.results)
        #expect(results.map(\.status) == [.flaky, .fail, .pass])
        #expect(results[0].failedAttempts.map(\.message) == ["stdout differs"] && results[0].failedAttempts[0].diffs.count == 1)
        #expect(results[1].attempts == 3)
        #expect(results[1].failedAttempts.map(\.abiFindings) == [[Self.finding], []])
        #expect(merged.json.contains("\"status\" : \"flaky\"") || merged.json.contains("\"status\":\"flaky\""))
        #expect(merged.printed[0].quiet == false, "a flaky case is printed, as a failure is")
    }

    @Test func theStepSummaryListsAFlakyCaseWithItsFirstFailure() {
        let text = StepSummary.render(Self.reports, tally: Self.tally, complete: true, seconds: 1)
        #expect(text.hasPrefix("### asmrun test: 1 passed, 1 failed, 1 flaky\n"))
        #expect(text.contains("| flaky | a.asm:one | native | passed only on attempt 2; attempt 1: stdout differs |\n"))
        #expect(text.contains("<details><summary>a.asm:one [native]</summary>\n\n```diff\nstdout differs\nstdout:\n-expected\n+got 1\n```"))
    }

    @Test func aFlakyCaseIsAWarningAnnotationWhereItFirstFailed() {
        let text = GitHubAnnotations.render(Self.reports[0])
        #expect(
            text
                == "::warning file=a.expect,line=3,title=a.asm%3Aone [native] is flaky::passed only on attempt 2; attempt 1: stdout differs"
                + "%0Astdout:%0A-expected%0A+got 1\n")
    }

    @Test func theConsoleSaysFlakyAndShowsTheFirstFailure() {
        let console = Console(bufferingWithColor: false)
        let reporter = ConsoleReporter(
            console: console, diagnostics: DiagnosticsEngine(console: console), verbose: false, environment: [:], total: 3)
        Self.reports.forEach(reporter.caseFinished)
        reporter.finish(complete: true, seconds: 1)
        #expect(
            console.capturedOutput
                == """
                FLAKY a.asm:one [native]: passed only on attempt 2; attempt 1: stdout differs
                    stdout:
                    -expected
                    +got 1
                FAIL  a.asm:two [native]: stdout differs (failed all 3 attempts)
                    attempt 2: timeout: ran past 10 s
                    attempt 3: fail: stdout differs
                PASS  a.asm:three [native] (10 ms)
                time: 1.00 s
                1 passed, 1 failed, 1 flaky

                """)
    }
}
