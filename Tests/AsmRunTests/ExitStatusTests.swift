import Foundation
import Processes
import Testing

@testable import CLI
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
        for status in [ExitCode.flaky, ExitCode.timedOut, ExitCode.toolFailure, ExitCode.interrupted] {
            #expect(section.contains("\(status)"), "the man page names \(status)")
            #expect(Usage.main.contains("\(status)"), "--help names \(status)")
        }
    }

    /// `ExitStatus.test` with everything clean unless given.
    private static func status(
        failed: Int = 0, flaky: Int = 0, allowFlaky: Bool = false, complete: Bool = true, pathProblems: Int = 0,
        unwrittenReports: Int = 0, interrupted: Bool = false
    ) -> Int32 {
        ExitStatus.test(
            failed: failed, flaky: flaky, allowFlaky: allowFlaky, complete: complete, pathProblems: pathProblems,
            unwrittenReports: unwrittenReports, interrupted: interrupted)
    }

    @Test func aTestRunsStatusComesFromItsOutcome() {
        #expect(Self.status() == 0)
        #expect(Self.status(failed: 1) == 1)
        #expect(Self.status(complete: false) == 1)
        #expect(Self.status(pathProblems: 1) == 1)
        #expect(Self.status(failed: 3, unwrittenReports: 1) == 2)
        #expect(Self.status(failed: 3, complete: false, unwrittenReports: 1, interrupted: true) == 130)
    }

    @Test func aFlakyCaseFailsTheRunUnlessAllowedAndAFailureOutranksIt() {
        #expect(Self.status(flaky: 1) == 3)
        #expect(Self.status(flaky: 1, allowFlaky: true) == 0)
        #expect(Self.status(failed: 1, flaky: 1, allowFlaky: true) == 1)
        #expect(Self.status(failed: 1, flaky: 2) == 1)
        #expect(Self.status(flaky: 1, complete: false) == 1)
        #expect(Self.status(flaky: 1, interrupted: true) == 130)
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
