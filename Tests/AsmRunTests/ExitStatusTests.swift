import Foundation
import Testing

@testable import CLI
@testable import Sandbox
@testable import Support

/// The exit statuses the README promises are the ones the code decides.
struct ExitStatusTests {
    /// The README's `| exit status | meaning |` table, row by row.
    private static func readmeTable() throws -> [(status: String, meaning: String)] {
        let text = try String(contentsOfFile: Fixture.packageRoot + "/README.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0 == "| exit status | meaning |" })
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            return (cells[0], cells.dropFirst().joined(separator: " | "))
        }
    }

    @Test func theReadmesTableIsTheCodes() throws {
        let documented = try Self.readmeTable()
        #expect(documented.map(\.status) == ExitStatus.table.map(\.status))
        #expect(documented.map(\.meaning) == ExitStatus.table.map(\.meaning))
    }

    @Test func theManPageAndHelpNameTheSameStatuses() throws {
        let page = try String(contentsOfFile: Fixture.packageRoot + "/Documentation/asmrun.1", encoding: .utf8)
        let section = try #require(page.components(separatedBy: ".Sh EXIT STATUS").last?.components(separatedBy: ".Sh ").first)
        for status in [ExitCode.timedOut, ExitCode.toolFailure, ExitCode.interrupted] {
            #expect(section.contains("\(status)"), "the man page names \(status)")
            #expect(Usage.main.contains("\(status)"), "--help names \(status)")
        }
    }

    @Test func aTestRunsStatusComesFromItsOutcome() {
        let clean = ExitStatus.test(failed: 0, flaky: 0, allowFlaky: false, complete: true, pathProblems: 0, unwrittenReports: 0, interrupted: false)
        #expect(clean == 0)
        #expect(ExitStatus.test(failed: 1, flaky: 0, allowFlaky: false, complete: true, pathProblems: 0, unwrittenReports: 0, interrupted: false) == 1)
        #expect(ExitStatus.test(failed: 0, flaky: 0, allowFlaky: false, complete: false, pathProblems: 0, unwrittenReports: 0, interrupted: false) == 1)
        #expect(ExitStatus.test(failed: 0, flaky: 0, allowFlaky: false, complete: true, pathProblems: 1, unwrittenReports: 0, interrupted: false) == 1)
        #expect(ExitStatus.test(failed: 3, flaky: 0, allowFlaky: false, complete: true, pathProblems: 0, unwrittenReports: 1, interrupted: false) == 2)
        #expect(ExitStatus.test(failed: 3, flaky: 0, allowFlaky: false, complete: false, pathProblems: 0, unwrittenReports: 1, interrupted: true) == 130)
    }

    @Test func aProgramsEndIsWhatAShellReports() {
        #expect(ExitStatus.program(.exited(3)) == 3)
        #expect(ExitStatus.program(.signaled(11)) == 139)
        #expect(ExitStatus.program(.timedOut) == 124)
    }

    @Test func theEngineEscapesAndCounts() {
        let console = Console(bufferingWithColor: false)
        let engine = DiagnosticsEngine(console: console)
        engine.note("skipped x\nPASS  forged.asm")
        engine.remark("a\u{1b}[2Jb")
        engine.warning("w1\nw2\u{7}", multiline: true)
        engine.error(FileError(path: "f\nFAIL.asm", problem: "is empty", fix: "write it"))
        #expect(
            console.capturedError == "note: skipped x\\nPASS  forged.asm\na\\e[2Jb\nw1\nw2\\x07\nasmrun: f\\nFAIL.asm: is empty; write it\n"
        )
        #expect(engine.errorCount == 1 && engine.hasWarnings)
    }
}
