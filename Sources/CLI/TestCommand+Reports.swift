import Build
import Report
import Suite
import Support

extension TestCommand {
    /// Cases the console has not shown yet, the reports, the scores, the summary, the step
    /// summary on GitHub, and the exit status.
    func finish(
        _ outcome: SuiteOutcome, _ suite: TestSuite, _ reporter: ConsoleReporter, interrupted: Bool, seconds: Double, expected: Int
    ) -> Int32 {
        for report in outcome.unshown { reporter.caseFinished(report) }
        for path in outcome.updatedFiles { reporter.note("updated \(path)") }
        let tally = reporter.tally
        let shown = showsScores(suite)
        // Scored only when something shows them: a plain run pays nothing for grading.
        let graded = options.jsonPath != nil || options.gradescopePath != nil || options.csvPath != nil || options.reportDirectory != nil
        let scores = shown || graded ? Scores(suite, reports: outcome.reports) : Scores()
        var exitStatus = tally.failed > 0 ? ExitCode.failure : ExitCode.success
        var remarks: [String] = []
        if !suite.problems.isEmpty {
            remarks.append("\(suite.problems.count) path\(suite.problems.count == 1 ? "" : "s") could not be searched (named above)")
        }
        if !suite.emptyPaths.isEmpty {
            remarks.append("\(suite.emptyPaths.count) path\(suite.emptyPaths.count == 1 ? " holds" : "s hold") no programs (named above)")
        }
        if !remarks.isEmpty { exitStatus = max(exitStatus, ExitCode.failure) }
        for remark in remarks { reporter.note(remark) }
        let students = studentRemarks(suite, complete: outcome.complete)
        let reports: [(String?, () throws -> String)] = [
            (options.junitPath, { JUnitReport.render(outcome, seconds: seconds) }),
            (
                options.jsonPath,
                {
                    try JSONReport.render(
                        outcome, seconds: seconds, scores: scores, expected: expected, skippedFiles: suite.ignored.count,
                        run: options.runIdentity(host: context.host.architecture))
                }
            ),
            (
                options.gradescopePath,
                {
                    try GradescopeReport.render(
                        scores, tally: tally, seconds: seconds, remarks: students, reference: options.referencePath)
                }
            ),
            (options.csvPath, { GradebookCSV.render(scores) }),
        ]
        for case (let path?, let render) in reports where !write(render, to: path) { exitStatus = ExitCode.usage }
        if let folder = options.reportDirectory, !writeSubmissionReports(scores, to: folder) { exitStatus = ExitCode.usage }
        let reason =
            interrupted ? "interrupted" : options.failFast ? "stopped by --fail-fast after the first failure" : nil
        let scoreLines = shown ? scores.lines : []
        reporter.finish(complete: outcome.complete, seconds: seconds, reason: reason, extra: outcome.holeWarnings + scoreLines)
        if let path = context.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            let sections = scoreLines.isEmpty ? [] : [StepSummary.scoreTable(scores)]
            let text = StepSummary.render(outcome.reports, tally: tally, complete: outcome.complete, seconds: seconds, sections: sections)
            do { try Files.append(Array(text.utf8), to: path) } catch { Diagnostics.show(error, console: context.console) }
        }
        if interrupted { return ExitCode.interrupted }
        if !outcome.complete && exitStatus == ExitCode.success { exitStatus = ExitCode.failure }
        return exitStatus
    }

    /// Scores are printed when grading: several paths, a reference, or points in the cases.
    private func showsScores(_ suite: TestSuite) -> Bool {
        suite.roots.count > 1 || options.referencePath != nil || suite.programs.contains { $0.cases.contains { $0.points != nil } }
    }

    /// What the students' reports say about the whole run: an incomplete run, a submission
    /// that held no program, directives grading ignored (each named after its path when there
    /// are several).
    private func studentRemarks(_ suite: TestSuite, complete: Bool) -> [String] {
        var lines = complete ? [] : ["grading stopped before every case ran"]
        let prefix = { (root: String) in suite.roots.count > 1 ? root.displayEscaped + ": " : "" }
        for empty in suite.emptyPaths {
            lines.append(prefix(empty.location?.path ?? "") + "your submission holds no programs (no .asm or .nasm file)")
        }
        let decider =
            options.referencePath == nil
            ? "--untrusted leaves how programs are judged to the command line" : "the reference decides how programs are judged"
        for (root, names) in suite.ignoredDirectives {
            let list = names.map { "`\($0)`" }.joined(separator: ", ")
            lines.append(prefix(root) + "your `; asmrun:` \(list) directive\(names.count == 1 ? " was" : "s were") ignored: \(decider)")
        }
        return lines
    }

    /// `--report-dir`: the folder (made if missing) and a Markdown file per path given.
    private func writeSubmissionReports(_ scores: Scores, to folder: String) -> Bool {
        guard Files.makeDirectories(folder) else {
            Diagnostics.show(
                FileError(path: folder, problem: "cannot be made a folder", fix: "give --report-dir a folder that can be created"),
                console: context.console)
            return false
        }
        for (name, text) in SubmissionReports.render(scores, reference: options.referencePath) {
            guard write({ text }, to: folder.hasSuffix("/") ? folder + name : folder + "/" + name) else { return false }
        }
        return true
    }

    private func write(_ render: () throws -> String, to path: String) -> Bool {
        do {
            AtomicFile.removeAbandoned(besides: path)
            try AtomicFile.write(Array(try render().utf8), to: path)
            return true
        } catch {
            Diagnostics.show(error, console: context.console)
            return false
        }
    }
}
