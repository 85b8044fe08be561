import Suite
import Support

/// The Markdown a run appends to `$GITHUB_STEP_SUMMARY`: the summary line, a table of the
/// failures and flaky cases (identical failures of several runners once), the first diffs
/// folded under each (a flaky case's first failure), and any further section (the scores of a
/// grading run).
package enum StepSummary {
    /// Failures listed in the table; the rest are counted.
    static let maxRows = 50
    /// Failures whose diff is included, and lines kept of each.
    static let maxDetails = 10
    static let maxDetailLines = 60

    package static func render(_ reports: [CaseReport], tally: Tally, complete: Bool, seconds: Double, sections: [String] = [])
        -> String
    {
        var text = "### asmrun test: \(tally.summaryLine)\n\n"
        if !complete { text += "**Run incomplete:** not every case ran.\n\n" }
        if let detail = tally.detailLine { text += cell(detail) + "\n\n" }
        // A flaky result is listed as a failure is, its first failure's diff below.
        let failures = reports.flatMap { report in
            ResultGroup.groups(of: report).filter { $0.result.isFailure || $0.result.status == .flaky }.map { (report, $0) }
        }
        if !failures.isEmpty {
            text += "| verdict | case | runners | what happened |\n| --- | --- | --- | --- |\n"
            for (report, group) in failures.prefix(maxRows) {
                text +=
                    "| \(group.result.status.rawValue) | \(cell(report.id)) | \(cell(group.runnerList)) | \(cell(group.result.message)) |\n"
            }
            if failures.count > maxRows {
                text += "\n… and \(failures.count - maxRows) more failures or flaky cases (the job log has them all).\n"
            }
            text += "\n"
            for (report, group) in failures.prefix(maxDetails) {
                let shown = group.result.status == .flaky ? group.result.failedAttempts.first ?? group.result : group.result
                let lines = shown.failureText.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxDetailLines)
                text += "<details><summary>\(cell(report.id)) [\(cell(group.runnerList))]</summary>\n\n"
                text += fenced(DisplayText.escapeLines(lines.joined(separator: "\n"))) + "\n</details>\n\n"
            }
        }
        text += emulationSection(reports)
        for section in sections { text += section + "\n" }
        return text + "Time: \(String(format: "%.2f", seconds)) s\n\n"
    }

    /// The programs' emulation warnings, once each, passing or not: a pass under qemu that
    /// would be a failure on x86 hardware.
    static func emulationSection(_ reports: [CaseReport]) -> String {
        var programs: Set<String> = []
        var lines: [String] = []
        for report in reports where !programs.contains(report.program) {
            let warnings = EmulationWarning.all(in: report.results.first { !$0.buildRemarks.isEmpty }?.buildRemarks ?? "")
            guard !warnings.isEmpty else { continue }
            programs.insert(report.program)
            lines += warnings.map { "- " + cell($0.rendered) + "\n" }
        }
        guard !lines.isEmpty else { return "" }
        return "**Behaves differently on x86 hardware than under emulation:**\n\n" + lines.prefix(maxRows).joined() + "\n"
    }

    /// Text for one table cell: control characters escaped as the console shows them (a name
    /// cannot break a line or hide an escape sequence), `|` escaped, HTML inert.
    static func cell(_ text: String) -> String {
        var escaped = ""
        for character in DisplayText.escape(text) {
            switch character {
            case "|": escaped += "\\|"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\\", "`", "*", "_", "[", "]": escaped += "\\" + String(character)
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A code block that no backtick run in `text` can close.
    static func fenced(_ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        var body = text
        while body.hasSuffix("\n") { body.removeLast() }
        return "\(fence)diff\n\(body)\n\(fence)\n"
    }
}

extension StepSummary {
    /// The scores of a grading run as a table: one row per path given.
    package static func scoreTable(_ scores: Scores) -> String {
        var text = "| path | score | programs short of full marks |\n| --- | --- | --- |\n"
        for root in scores.roots {
            let lost = root.programs.filter { $0.score < $0.maxScore }
                .map { "\($0.name) \(Scores.format($0.score))/\(Scores.format($0.maxScore))" }
            text +=
                "| \(cell(root.path)) | \(Scores.format(root.score))/\(Scores.format(root.maxScore)) | \(cell(lost.joined(separator: ", "))) |\n"
        }
        return text
    }
}
