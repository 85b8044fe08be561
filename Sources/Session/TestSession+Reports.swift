import Build
import Report
import Suite
import Support

extension TestSession {
    /// Refuses, before anything runs, a report path that another report names too, or that
    /// names a file the run reads (a source, an `.expect` file, a file a source includes, a file
    /// of a `.files` folder), also through a link: the report would replace it, as `-o` would
    /// (`BadInputTests`).
    func refuseReportsOverInputs(_ suite: TestSuite) throws {
        let named: [(String, String?)] = [
            ("--junit", plan.junitPath), ("--json", plan.jsonPath), ("--gradescope", plan.gradescopePath), ("--csv", plan.csvPath),
        ]
        let reports = named.compactMap { option, path in
            path.map { (option: option, path: $0, key: Files.realPath($0) ?? WatchSet.canonical($0) ?? $0) }
        }
        for (index, report) in reports.enumerated() {
            if let other = reports[..<index].first(where: { $0.key == report.key }) {
                throw UsageError(
                    "\(report.option) \(report.path.displayEscaped) names the file \(other.option) writes too",
                    fix: "give each report a path of its own")
            }
        }
        guard !reports.isEmpty else { return }
        // A report path is resolved whole (`latest.json` -> p.asm is p.asm); an existing one is
        // also compared by file, for an input that is a link itself.
        let existing = reports.filter { Files.exists($0.path) }
        for program in suite.programs {
            // The `.files` folder's files are the cases' inputs.
            let files = program.fileFolder.flatMap(Files.realPath)
            for input in WatchSet.Program(program).inputs + (files.map { [$0] } ?? []) {
                let names = { (key: String) in key == input || (input == files && Files.isWithin(key, folder: input)) }
                guard let report = reports.first(where: { names($0.key) }) ?? existing.first(where: { Files.sameFile($0.path, input) })
                else { continue }
                throw UsageError(
                    "\(report.option) \(report.path.displayEscaped) names \(input.displayEscaped), which the run reads; the report would replace it",
                    fix: "choose another path, such as \(report.option) \(Self.reportSuggestion[report.option] ?? "report")")
            }
        }
    }

    private static let reportSuggestion = [
        "--junit": "junit.xml", "--json": "report.json", "--gradescope": "results.json", "--csv": "grades.csv",
    ]

    /// Cases not shown yet, the reports, the scores and the step summary on GitHub; the front
    /// end prints the summary.
    func finish(
        _ outcome: SuiteOutcome, _ suite: TestSuite, interrupted: Bool, seconds: Double, expected: Int,
        observe: @Sendable (TestEvent) -> Void
    ) -> TestOutcome {
        for report in outcome.unshown { observe(.caseFinished(report)) }
        for path in outcome.updatedFiles { observe(.remark("updated \(path)")) }
        var tally = Tally()
        for report in outcome.reports { tally.add(report) }
        let shown = showsScores(suite)
        // Scored only when something shows them: a plain run pays nothing for grading.
        let graded = plan.jsonPath != nil || plan.gradescopePath != nil || plan.csvPath != nil || plan.reportDirectory != nil
        let scores = shown || graded ? Scores(suite, reports: outcome.reports, allowFlaky: plan.allowFlaky) : Scores()
        var remarks: [String] = []
        if !suite.problems.isEmpty {
            remarks.append("\(suite.problems.count) path\(suite.problems.count == 1 ? "" : "s") could not be searched (named above)")
        }
        if !suite.emptyPaths.isEmpty {
            remarks.append("\(suite.emptyPaths.count) path\(suite.emptyPaths.count == 1 ? " holds" : "s hold") no programs (named above)")
        }
        for remark in remarks { observe(.remark(remark)) }
        let students = studentRemarks(suite, complete: outcome.complete)
        let reports: [(String?, () throws -> String)] = [
            (plan.junitPath, { JUnitReport.render(outcome, seconds: seconds) }),
            (
                plan.jsonPath,
                {
                    try JSONReport.render(
                        outcome, seconds: seconds, scores: scores, expected: expected, skippedFiles: suite.ignored.count,
                        run: plan.runIdentity(host: context.host.architecture))
                }
            ),
            (
                plan.gradescopePath,
                {
                    try GradescopeReport.render(
                        scores, tally: tally, seconds: seconds, remarks: students, reference: plan.referencePath)
                }
            ),
            (plan.csvPath, { GradebookCSV.render(scores) }),
        ]
        var result = TestOutcome(suite: outcome, tally: tally)
        for case (let path?, let render) in reports where !write(render, to: path) { result.unwrittenReports += 1 }
        if let folder = plan.reportDirectory, !writeSubmissionReports(scores, to: folder) { result.unwrittenReports += 1 }
        result.reason = interrupted ? "interrupted" : plan.failFast ? "stopped by --fail-fast after the first failure" : nil
        result.scoreLines = shown ? scores.lines : []
        if let path = context.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            let sections = result.scoreLines.isEmpty ? [] : [StepSummary.scoreTable(scores)]
            let text = StepSummary.render(outcome.reports, tally: tally, complete: outcome.complete, seconds: seconds, sections: sections)
            do { try Files.append(Array(text.utf8), to: path) } catch { diagnostics.error(error) }
        }
        result.interrupted = interrupted
        result.seconds = seconds
        result.pathProblems = suite.problems.count + suite.emptyPaths.count
        return result
    }

    /// Scores are printed when grading: several paths, a reference, or points in the cases.
    private func showsScores(_ suite: TestSuite) -> Bool {
        suite.roots.count > 1 || plan.referencePath != nil || suite.programs.contains { $0.cases.contains { $0.points != nil } }
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
            plan.referencePath == nil
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
            diagnostics.error(
                FileError(path: folder, problem: "cannot be made a folder", fix: "give --report-dir a folder that can be created"))
            return false
        }
        for (name, text) in SubmissionReports.render(scores, reference: plan.referencePath) {
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
            diagnostics.error(error)
            return false
        }
    }
}
