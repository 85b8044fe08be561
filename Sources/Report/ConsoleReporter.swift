import Compare
import Suite
import Support
import Synchronization

/// Prints cases as they finish (in report order), a live counter on a terminal, GitHub Actions
/// annotations when `GITHUB_ACTIONS=true`, and the summary. All output goes through `Console`.
package final class ConsoleReporter: Sendable {
    private let console: Console
    private let diagnostics: DiagnosticsEngine
    private let verbose: Bool
    private let githubActions: Bool
    /// This run's `::stop-commands::` token (see `LogText.fenced`).
    private let commandToken = LogText.token()
    private let total: Int
    private let state = Mutex(State())
    /// Programs whose emulation warnings were printed (once per program, with its first case).
    private let warnedPrograms = Mutex(Set<String>())

    private struct State {
        /// Results printed.
        var done = 0
        /// Results finished but held back (`--update` prints them once they are recorded).
        var ran = 0
        var tally = Tally()
        var progressShown = false
    }

    /// What a failing case's last line says to record it (`nil`: no such line, when grading).
    private let accept: AcceptCommand?

    package init(
        console: Console, diagnostics: DiagnosticsEngine, verbose: Bool, environment: [String: String], total: Int,
        accept: AcceptCommand? = nil
    ) {
        self.console = console
        self.diagnostics = diagnostics
        self.accept = accept
        self.verbose = verbose
        githubActions = environment["GITHUB_ACTIONS"] == "true"
        self.total = total
    }

    package var tally: Tally { state.withLock { $0.tally } }

    /// Prints one finished case; the text is made before the lock is taken.
    package func caseFinished(_ report: CaseReport) {
        // A pass under qemu that fails on x86 hardware: said with the program's first case,
        // passing or not (other build warnings stay with failures).
        let hardware = report.quiet ? [] : firstEmulationWarnings(report)
        var text = hardware.map { LogText.toolOutput($0.rendered) + "\n" }.joined()
        for group in ResultGroup.groups(of: report) where !report.quiet { text += render(group, of: report) }
        if let divergence = report.divergence {
            text +=
                console.paint("DIVERGE", .red) + " \(report.id.displayEscaped): runners disagree\n"
                + indent(colorDiff(DisplayText.escapeLines(divergence)))
        }
        if githubActions && !report.quiet {
            text =
                LogText.fenced(text, token: commandToken) + GitHubAnnotations.render(report)
                + GitHubAnnotations.render(hardware, program: report.program)
        }
        state.withLock { state in
            clearProgress(&state.progressShown)
            state.done += report.results.count
            state.tally.add(report)
            console.write(text)
            showProgress(&state)
        }
    }

    /// Counts results that finished but are printed later (`--update`), for the live counter.
    package func caseRan(_ results: Int) {
        state.withLock { state in
            state.ran += results
            clearProgress(&state.progressShown)
            showProgress(&state)
        }
    }

    private func showProgress(_ state: inout State) {
        let finished = max(state.done, state.ran)
        guard console.errorIsTerminal && finished < total else { return }
        let counts = state.ran > state.done ? "ran" : "\(state.tally.passed) passed, \(state.tally.failed) failed"
        console.write("\r[\(finished)/\(total)] \(counts)", to: .error)
        state.progressShown = true
    }

    /// Prints a remark on its own line (one line, whatever names it holds).
    package func note(_ text: String) {
        state.withLock { state in
            clearProgress(&state.progressShown)
            diagnostics.remark(text)
        }
    }

    /// Prints the summary; the last line is `N passed, N failed[, N skipped][, N interrupted]`. An incomplete
    /// run says why (`reason`) and how many results are missing.
    package func finish(complete: Bool, seconds: Double, reason: String? = nil, extra: [String] = []) {
        state.withLock { state in
            clearProgress(&state.progressShown)
            // The scores' and warnings' names are a submission's folder names: each line stays
            // one line (escaping again is harmless), and under GitHub Actions the block is fenced
            // as case lines are, since the runner obeys `::name` after a line's leading blanks.
            var lines = extra.map(DisplayText.escape)
            if !complete {
                let missing = total - state.done
                let counted = missing > 0 ? " (\(missing) of \(total) did not run)" : ""
                lines.append("run incomplete: not every case ran" + counted + (reason.map { ": " + DisplayText.escape($0) } ?? ""))
            }
            if let detail = state.tally.detailLine { lines.append(detail) }
            lines.append("time: \(String(format: "%.2f", seconds)) s")
            lines.append(state.tally.summaryLine)
            let text = lines.joined(separator: "\n") + "\n"
            console.write(githubActions ? LogText.fenced(text, token: commandToken) : text)
        }
    }

    private func render(_ group: ResultGroup, of report: CaseReport) -> String {
        let result = group.result
        let shown = report.visibility == .visible ? "" : " (\(report.visibility.rawValue))"
        let head = "\(report.id.displayEscaped) [\(group.runnerList.displayEscaped)]\(shown)"
        let message = DisplayText.escape(result.message)
        // Not String(format:): its CVarArg boxing and conformance lookups cost more than a case's
        // verdict. Rounded half to even, as printf's %.0f.
        let exact = (result.duration * 1000).rounded(.toNearestOrEven)
        let milliseconds = exact.isFinite && abs(exact) < 1e15 ? "\(Int(exact)) ms" : "? ms"

        switch result.status {
        case .pass:
            let recorded = message.isEmpty ? "" : " — " + message
            guard verbose || !console.errorIsTerminal else { return "" }
            return console.paint("PASS ", .green) + " \(head) (\(milliseconds))\(recorded)\n" + (verbose ? crash(result) : "")
        case .skip:
            return verbose || !console.errorIsTerminal ? console.paint("SKIP ", .yellow) + " \(head): \(message)\n" : ""
        case .xfail:
            return verbose || !console.errorIsTerminal ? console.paint("XFAIL", .yellow) + " \(head): \(message)\n" : ""
        case .interrupted:
            return console.paint("INTR ", .yellow) + " \(head): \(message)\n"
        case .flaky:
            // Never a plain pass: what went wrong the first time is shown as a failure is.
            var text = console.paint("FLAKY", .yellow) + " \(head): \(message)\n"
            if let first = result.failedAttempts.first { text += failureBody(first) }
            return text + attemptLines(result.failedAttempts.dropFirst(), from: 2)
        case .fail, .error, .timeout:
            let label = result.status == .fail ? "FAIL " : result.status == .error ? "ERROR" : "TIME "
            let attempts = result.attempts > 1 ? " (failed all \(result.attempts) attempts)" : ""
            var text = console.paint(label, .red) + " \(head): \(message)\(attempts)\n" + failureBody(result)
            text += attemptLines(result.failedAttempts[...], from: 2)
            if let line = accept?.line(for: report, result) { text += "    " + DisplayText.escape(line) + "\n" }
            return text
        }
    }

    /// A failure's diffs, tool output, crash report and build remarks.
    private func failureBody(_ result: RunnerResult) -> String {
        var text = ""
        for diff in result.diffs {
            text += indent(diff.stream + ":\n" + colorDiff(DisplayText.escapeLines(diff.text)))
        }
        // Tool output (nasm's `file:line: error:`) stays unindented for problem matchers.
        if !result.detail.isEmpty { text += LogText.toolOutput(result.detail) + "\n" }
        text += crash(result)
        for finding in result.abiFindings { text += indent(DisplayText.escapeLines(finding)) }
        let remarks = EmulationWarning.removing(from: result.buildRemarks)
        if !remarks.isEmpty { text += LogText.toolOutput(remarks) + "\n" }
        return text
    }

    /// `--retries`: one line per further failed attempt (`attempt 2: timeout: …`).
    private func attemptLines(_ attempts: ArraySlice<RunnerResult>, from number: Int) -> String {
        attempts.enumerated().map { offset, attempt in
            "    attempt \(number + offset): \(attempt.status.rawValue): \(DisplayText.escape(attempt.message))\n"
        }.joined()
    }

    /// The emulation warnings of the report's build, the first time its program is reported.
    private func firstEmulationWarnings(_ report: CaseReport) -> [EmulationWarning] {
        guard let remarks = report.results.first(where: { !$0.buildRemarks.isEmpty })?.buildRemarks else { return [] }
        let warnings = EmulationWarning.all(in: remarks)
        guard !warnings.isEmpty, warnedPrograms.withLock({ $0.insert(report.program).inserted }) else { return [] }
        return warnings
    }

    /// The crash report, indented under its case.
    private func crash(_ result: RunnerResult) -> String {
        if let report = result.crash { return indent(DisplayText.escapeLines(report.rendered())) }
        return result.crashNote.map { indent(DisplayText.escapeLines($0)) } ?? ""
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
            .map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    private func colorDiff(_ text: String) -> String {
        guard console.colorEnabled else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("+++") || line.hasPrefix("---") { return console.paint(String(line), .bold) }
            if line.hasPrefix("+") { return console.paint(String(line), .green) }
            if line.hasPrefix("-") { return console.paint(String(line), .red) }
            if line.hasPrefix("@@") { return console.paint(String(line), .cyan) }
            return String(line)
        }.joined(separator: "\n")
    }

    private func clearProgress(_ shown: inout Bool) {
        if shown { console.write("\r\u{1b}[K", to: .error) }
        shown = false
    }
}
