import Compare
import Suite
import Support

/// GitHub Actions workflow commands for failures: `::error file=…,line=…,title=…::message`,
/// pointing at the `.expect` line of the field that failed (the first error line of a build
/// failure), with the first lines of the diff in the message, and once more on the program's
/// source for what the program did; and `::warning` for a case that passed only on a retry
/// (`--retries`) and for a program's emulation warnings (`EmulationWarning`), passing or not.
package enum GitHubAnnotations {
    /// Diff lines carried in one annotation (GitHub shows a few; the log has the rest).
    static let diffLines = 12

    /// One annotation per failure of `report` (identical failures of several runners once), and a
    /// warning per flaky result, where its first failure points, with that failure's diff.
    package static func render(_ report: CaseReport) -> String {
        var text = ""
        for result in report.results where result.status == .flaky {
            let location = result.location ?? FileLocation(report.program, line: 1)
            let title = "\(report.id.displayEscaped) [\(result.runner.displayEscaped)] is flaky"
            let first = result.failedAttempts.first.map(excerpt) ?? []
            let body = ([DisplayText.escape(result.message)] + first.map(DisplayText.escape)).joined(separator: "\n")
            text += "::warning file=\(escape(location.path.displayEscaped, property: true)),line=\(location.line ?? 1)"
            text += ",title=\(escape(title, property: true))::\(escape(body, property: false))\n"
        }
        for group in ResultGroup.groups(of: report) where group.result.isFailure {
            let result = group.result
            let location = result.location ?? FileLocation(report.program, line: 1)
            let title = "\(report.id.displayEscaped) [\(group.runnerList.displayEscaped)]"
            let body = ([DisplayText.escape(result.message)] + excerpt(result).map(DisplayText.escape)).joined(separator: "\n")
            text += "::error file=\(escape(location.path.displayEscaped, property: true)),line=\(location.line ?? 1)"
            text += ",title=\(escape(title, property: true))::\(escape(body, property: false))\n"
            if let source = sourceLocation(of: result, program: report.program, besides: location) {
                text += "::error file=\(escape(source.path.displayEscaped, property: true)),line=\(source.line ?? 1)"
                text += ",title=\(escape(title, property: true))::\(escape(body, property: false))\n"
            }
        }
        return text
    }

    /// Where the same failure is said once more on the program's own source, the file a pull
    /// request changes (the `.expect` line it points at is one the change did not touch): the
    /// line it crashed on, else its first line. Only for what the program did (a failed or
    /// timed-out run), not for a broken expectation or build, which point at their own file.
    static func sourceLocation(of result: RunnerResult, program: String, besides location: FileLocation) -> FileLocation? {
        guard result.status == .fail || result.status == .timeout, location.path != program, Files.isRegularFile(program) else {
            return nil
        }
        if let crashed = result.crash?.location, crashed.path == program { return crashed }
        return FileLocation(program, line: 1)
    }

    /// One warning annotation per emulation warning of `program` (a pass under qemu that would
    /// be a failure on x86 hardware), at the line it names.
    static func render(_ warnings: [EmulationWarning], program: String) -> String {
        let title = escape("\(program.displayEscaped): behaves differently on x86 hardware", property: true)
        return warnings.map { warning in
            "::warning file=\(escape(warning.path, property: true)),line=\(warning.line),title=\(title)::"
                + escape(DisplayText.escape(warning.message), property: false) + "\n"
        }.joined()
    }

    /// The first lines of the diffs (or of the tool's output, for a build failure).
    static func excerpt(_ result: RunnerResult) -> [String] {
        var lines: [String] = []
        for diff in result.diffs {
            lines.append(diff.stream + ":")
            lines += diff.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
        if lines.isEmpty && !result.detail.isEmpty {
            lines = result.detail.split(separator: "\n").map(String.init)
        }
        guard lines.count > diffLines else { return lines }
        return lines.prefix(diffLines) + ["… \(lines.count - diffLines) more lines in the log"]
    }

    /// GitHub's escaping of workflow command data (`%`, CR, LF) and properties (also `:`, `,`),
    /// so no text can end the annotation or start another command.
    static func escape(_ text: String, property: Bool) -> String {
        text.escapingScalars(property ? propertyEscapes : dataEscapes)
    }

    private static let dataEscapes: [Unicode.Scalar: String] = ["%": "%25", "\r": "%0D", "\n": "%0A"]
    private static let propertyEscapes = dataEscapes.merging([":": "%3A", ",": "%2C"]) { $1 }
}
