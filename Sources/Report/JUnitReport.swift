import Compare
import Suite
import Support

/// JUnit XML: one `<testsuite>` per program, one `<testcase>` per case and runner; the failure
/// text is the diff; a passing case's emulation warnings are its `<system-err>`. CI systems
/// (GitHub, GitLab, Jenkins) show it as a test report.
package enum JUnitReport {
    package static func render(_ outcome: SuiteOutcome, seconds: Double) -> String {
        var tally = Tally()
        outcome.reports.forEach { tally.add($0) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let total = outcome.reports.reduce(0) { $0 + $1.results.count }
        xml +=
            "<testsuites name=\"asmrun\" tests=\"\(total)\" failures=\"\(tally.failed - tally.errors)\" errors=\"\(tally.errors)\" skipped=\"\(tally.skipped + tally.interrupted)\" time=\"\(format(seconds))\">\n"
        var byProgram: [(String, [CaseReport])] = []
        for report in outcome.reports {
            if byProgram.last?.0 == report.program {
                byProgram[byProgram.count - 1].1.append(report)
            } else {
                byProgram.append((report.program, [report]))
            }
        }
        for (program, reports) in byProgram {
            var suiteTally = Tally()
            reports.forEach { suiteTally.add($0) }
            let results = reports.flatMap { report in report.results.map { (report, $0) } }
            let time = results.reduce(0) { $0 + $1.1.duration }
            xml +=
                "  <testsuite name=\"\(escape(program.displayEscaped))\" tests=\"\(results.count)\" failures=\"\(suiteTally.failed - suiteTally.errors)\" errors=\"\(suiteTally.errors)\" skipped=\"\(suiteTally.skipped + suiteTally.interrupted)\" time=\"\(format(time))\">\n"
            xml += "    <properties><property name=\"complete\" value=\"\(outcome.complete)\"/></properties>\n"
            for (report, result) in results {
                xml +=
                    "    <testcase classname=\"\(escape(program.displayEscaped))\" name=\"\(escape("\(report.caseName) [\(result.runner)]".displayEscaped))\" time=\"\(format(result.duration))\""
                var body = ""
                switch result.status {
                case .pass: body = emulationWarnings(result)
                case .skip, .interrupted: body = "      <skipped message=\"\(escape(DisplayText.escape(result.message)))\"/>\n"
                case .xfail: body = "      <system-out>\(escape(DisplayText.escape(result.message)))</system-out>\n"
                case .flaky: body = attempts(result.failedAttempts, as: "flaky") + emulationWarnings(result)
                case .fail, .timeout:
                    body =
                        "      <failure type=\"\(result.status.rawValue)\" message=\"\(escape(DisplayText.escape(result.message)))\">\(escape(failureText(result, report)))</failure>\n"
                        + attempts(result.failedAttempts, as: "rerun")
                case .error:
                    body =
                        "      <error type=\"error\" message=\"\(escape(DisplayText.escape(result.message)))\">\(escape(failureText(result, report)))</error>\n"
                }
                xml += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// A passing case's emulation warnings (its failures carry every build warning already).
    private static func emulationWarnings(_ result: RunnerResult) -> String {
        let warnings = EmulationWarning.all(in: result.buildRemarks)
        guard !warnings.isEmpty else { return "" }
        return "      <system-err>\(escape(warnings.map { DisplayText.escape($0.rendered) }.joined(separator: "\n")))</system-err>\n"
    }

    /// `--retries`, as Maven Surefire writes reruns: a `<flakyFailure>` (`<flakyError>`) per failed
    /// attempt of a case that passed on a retry, a `<rerunFailure>` per failed retry of one that
    /// failed; each with the failure in `<stackTrace>` and the attempt's output. The schema
    /// (surefire-test-report-3.0.xsd) puts the failures before the errors.
    private static func attempts(_ attempts: [RunnerResult], as kind: String) -> String {
        let ordered = attempts.filter { $0.status != .error } + attempts.filter { $0.status == .error }
        return ordered.map { attempt in
            let element = kind + (attempt.status == .error && kind == "flaky" ? "Error" : "Failure")
            var text =
                "      <\(element) type=\"\(attempt.status.rawValue)\" message=\"\(escape(DisplayText.escape(attempt.message)))\">\n"
            text += "        <stackTrace>\(escape(DisplayText.escapeLines(attempt.failureText)))</stackTrace>\n"
            for (name, stream) in [("system-out", attempt.observation?.stdout), ("system-err", attempt.observation?.stderr)] {
                guard let stream, !stream.lines.isEmpty else { continue }
                text += "        <\(name)>\(escape(DisplayText.escapeLines(JSONReport.excerpt(stream))))</\(name)>\n"
            }
            return text + "      </\(element)>\n"
        }.joined()
    }

    private static func failureText(_ result: RunnerResult, _ report: CaseReport) -> String {
        DisplayText.escapeLines(result.failureText + (report.divergence.map { "\n" + $0 } ?? ""))
    }

    private static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    private static let entities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
    ]

    /// Escapes XML special characters and writes the characters XML 1.0 cannot hold (controls
    /// other than tab, LF and CR; U+FFFE and U+FFFF) as `\xHH` text.
    static func escape(_ text: String) -> String {
        text.escapingScalars(entities) { scalar in
            let held = scalar.value >= 0x20 ? !(0xfffe...0xffff).contains(scalar.value) : ["\t", "\n", "\r"].contains(scalar)
            return held ? nil : "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
        }
    }
}
