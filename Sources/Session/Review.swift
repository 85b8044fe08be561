import Report
import Suite
import Support

/// `asmrun test --review`, once the run is over: walks the failing cases `--update` could record,
/// one at a time, showing each as the console did (its diffs) and asking for a key: accept,
/// skip, reject, accept all, quit. The accepted cases are recorded at the end, all in one
/// `--update` run of those cases alone (`TestSession.accept`), so nothing is written for a case
/// not accepted, and a quit, the end of the input or Ctrl-C writes what was accepted before it.
/// Keys come from `readKey` (`nil`: the input ended) and everything is said on `console`, so a
/// test scripts both.
package struct Review {
    package enum Decision: String, Sendable { case accepted, skipped, rejected }

    /// How the review ended, and what it recorded.
    package struct Outcome: Sendable {
        /// Each case shown, with the key's decision, in the order shown.
        var decisions: [(report: CaseReport, decision: Decision)] = []
        /// Cases not reached (quit, the end of the input, Ctrl-C).
        var unreviewed: [CaseReport] = []
        /// What recording the accepted cases did (empty when none was accepted).
        var acceptance = TestSession.Acceptance()
        /// Ctrl-C ended the review (or the recording).
        package var interrupted = false
        /// Recording could not start (a usage or setup error, emitted).
        package var failed = false

        /// The accepted cases whose new result was written.
        package var recorded: [CaseReport] {
            decisions.filter { $0.decision == .accepted && acceptance.results[$0.report.id]?.recorded == true }.map(\.report)
        }
    }

    /// The keys and what they do, for `?`.
    static let help = [
        "a  accept: record this case's new result (as --update --filter would)",
        "s  skip: leave it for now", "r  reject: leave it, the new result is wrong",
        "A  accept this case and every one after it", "q  quit: record what was accepted so far, review no more",
        "?  this help",
    ]
    static let prompt = "accept (a), skip (s), reject (r), accept all (A), quit (q), help (?) > "

    let console: Console
    let diagnostics: DiagnosticsEngine
    let readKey: () -> UInt8?
    let record: ([CaseReport]) throws -> TestSession.Acceptance

    package init(
        console: Console, diagnostics: DiagnosticsEngine, readKey: @escaping () -> UInt8?,
        record: @escaping ([CaseReport]) throws -> TestSession.Acceptance
    ) {
        self.console = console
        self.diagnostics = diagnostics
        self.readKey = readKey
        self.record = record
    }

    /// The cases a review walks: those with a failure `--update` would record (not errors, nor
    /// cases past the output limit, nor a Markdown block's status or stderr).
    package static func reviewable(_ reports: [CaseReport]) -> [CaseReport] {
        let command = AcceptCommand()
        return reports.filter { report in report.results.contains { command.line(for: report, $0) != nil } }
    }

    /// Walks `reports` (already `reviewable`), then records the accepted ones.
    package func walk(_ reports: [CaseReport]) -> Outcome {
        var outcome = decide(reports)
        recordAccepted(&outcome)
        return outcome
    }

    /// Shows each of `reports` and reads its key, recording nothing (`recordAccepted` does).
    package func decide(_ reports: [CaseReport]) -> Outcome {
        var outcome = Outcome()
        let shower = ConsoleReporter(console: console, diagnostics: diagnostics, verbose: false, environment: [:], total: 0)
        var index = 0
        var acceptingAll = false
        walking: while index < reports.count {
            let report = reports[index]
            console.write("\n" + console.paint("review \(index + 1)/\(reports.count)", .bold) + " \(report.id.displayEscaped)\n")
            shower.caseFinished(report)
            let decision: Decision
            if acceptingAll {
                decision = .accepted
            } else {
                switch ask() {
                case .decided(let chosen): decision = chosen
                case .acceptAll:
                    acceptingAll = true
                    decision = .accepted
                case .quit: break walking
                case .interrupt:
                    outcome.interrupted = true
                    break walking
                }
            }
            outcome.decisions.append((report, decision))
            index += 1
        }
        outcome.unreviewed = Array(reports[index...])
        return outcome
    }

    private enum Answer { case decided(Decision), acceptAll, quit, interrupt }

    /// Asks until a key decides; the key's name is echoed.
    private func ask() -> Answer {
        while true {
            console.write(Self.prompt)
            guard let key = readKey() else {
                console.write("end of input: quit\n")
                return .quit
            }
            switch key {
            case UInt8(ascii: "a"): return echo("accept", .decided(.accepted))
            case UInt8(ascii: "s"): return echo("skip", .decided(.skipped))
            case UInt8(ascii: "r"): return echo("reject", .decided(.rejected))
            case UInt8(ascii: "A"): return echo("accept all", .acceptAll)
            case UInt8(ascii: "q"), 0x04: return echo("quit", .quit)
            case 0x03: return echo("interrupted", .interrupt)
            case UInt8(ascii: "?"), UInt8(ascii: "h"): console.write("?\n" + Self.help.map { "  " + $0 + "\n" }.joined())
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): console.write("\n")
            default: console.write("\(DisplayText.escape(String(decoding: [key], as: UTF8.self))): not a key here (? for help)\n")
            }
        }
    }

    private func echo(_ name: String, _ answer: Answer) -> Answer {
        console.write(name + "\n")
        return answer
    }

    /// Records the accepted cases, once; an error is emitted and nothing is written.
    package func recordAccepted(_ outcome: inout Outcome) {
        let accepted = outcome.decisions.filter { $0.decision == .accepted }.map(\.report)
        guard !accepted.isEmpty else { return }
        console.write("recording \(accepted.count) accepted case\(accepted.count == 1 ? "" : "s")…\n")
        do {
            outcome.acceptance = try record(accepted)
            if outcome.acceptance.interrupted { outcome.interrupted = true }
        } catch {
            diagnostics.error(error)
            outcome.failed = true
        }
    }
}
