import AsmRunTestSupport
import Report
import Suite
import Testing

@testable import Support

/// The console reporter on a buffering console: what each verdict prints, the summary, notes.
struct ConsoleReporterTests {
    private static func reporter(verbose: Bool = false) -> (ConsoleReporter, Console) {
        let console = Console(bufferingWithColor: false)
        let reporter = ConsoleReporter(
            console: console, diagnostics: DiagnosticsEngine(console: console), verbose: verbose, environment: [:], total: 3)
        return (reporter, console)
    }

    @Test func eachVerdictIsOneLineAndTheSummaryCountsThem() {
        let (reporter, console) = Self.reporter()
        reporter.caseFinished(UnitFixture.report("a.asm", "one", [UnitFixture.result("native", .pass, duration: 0.012)]))
        reporter.caseFinished(UnitFixture.report("a.asm", "two", [UnitFixture.result("native", .fail, message: "stdout differs")]))
        reporter.caseFinished(UnitFixture.report("b.asm", "three", [UnitFixture.result("native", .skip, message: "not here")]))
        reporter.finish(complete: true, seconds: 1.5)
        #expect(
            console.capturedOutput
                == """
                PASS  a.asm:one [native] (12 ms)
                FAIL  a.asm:two [native]: stdout differs
                SKIP  b.asm:three [native]: not here
                time: 1.50 s
                1 passed, 1 failed, 1 skipped

                """)
        #expect(reporter.tally.passed == 1 && reporter.tally.failed == 1 && reporter.tally.skipped == 1)
    }

    @Test func anIncompleteRunSaysWhatDidNotRunAndWhy() {
        let (reporter, console) = Self.reporter()
        reporter.caseFinished(UnitFixture.report("a.asm", "one", [UnitFixture.result("native", .pass)]))
        reporter.finish(complete: false, seconds: 0, reason: "interrupted")
        #expect(console.capturedOutput.contains("run incomplete: not every case ran (2 of 3 did not run): interrupted\n"))
    }

    @Test func namesAndNotesAreEscaped() {
        let (reporter, console) = Self.reporter()
        reporter.caseFinished(UnitFixture.report("x\nPASS  y.asm", "one", [UnitFixture.result("native", .fail, message: "m\u{1b}[2J")]))
        reporter.note("updated x\nPASS  forged")
        #expect(console.capturedOutput.hasPrefix("FAIL  x\\nPASS  y.asm:one [native]: m\\e[2J\n"))
        #expect(console.capturedError == "updated x\\nPASS  forged\n")
    }

    /// The summary's further lines (scores, `--update`'s hole warnings) and the reason a run is
    /// incomplete hold names: each stays one line; under GitHub Actions the block is fenced.
    @Test func theSummarysNamesAreEscapedAndFenced() {
        let (reporter, console) = Self.reporter()
        reporter.finish(complete: false, seconds: 0, reason: "r\nPASS  r", extra: ["warning: x\nPASS  w.asm", "  s\u{1b}[2K"])
        let lines = console.capturedOutput.split(separator: "\n")
        #expect(
            lines.prefix(3) == [
                "warning: x\\nPASS  w.asm", "  s\\e[2K", "run incomplete: not every case ran (3 of 3 did not run): r\\nPASS  r",
            ])
        let fencedConsole = Console(bufferingWithColor: false)
        let github = ConsoleReporter(
            console: fencedConsole, diagnostics: DiagnosticsEngine(console: fencedConsole), verbose: false,
            environment: ["GITHUB_ACTIONS": "true"], total: 0)
        github.finish(complete: true, seconds: 0, extra: ["  x\n::notice::forged"])
        let fenced = fencedConsole.capturedOutput.split(separator: "\n")
        #expect(fenced.first?.hasPrefix("::stop-commands::") == true && fenced.count == 5, "\(fenced)")
        #expect(fenced.last == "::\(fenced.first!.dropFirst("::stop-commands::".count))::", "\(fenced)")
    }
}
