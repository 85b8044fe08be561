import Processes
import Report
import Run
import Sandbox
import Suite
import Support

extension TestSession {
    /// Discovery (with the reference), `--filter`, then `--shard`; what could not be searched,
    /// folders that hold no program and the files not taken as programs are reported here.
    /// `loaded` gets each program as soon as it is read (to build it ahead).
    func selectPrograms(
        documents: String, stop: @escaping @Sendable () -> Bool = { false },
        loaded: @escaping @Sendable (TestProgram) -> Void = { _ in }, selected: (([TestProgram]) -> Void)? = nil
    ) throws -> TestSuite {
        let reference = try plan.referencePath.map { try Reference(path: $0) }
        let rules = GradingRules(reference: reference, untrusted: plan.untrusted)
        var suite = TestSuite(
            paths: submissions(of: plan.paths), rules: rules, loaders: plan.filter == nil ? plan.jobs : 1, documents: documents, stop: stop,
            loaded: loaded)
        if suite.interrupted { return suite }
        for problem in suite.problems { diagnostics.error(problem) }
        reportSkipped(suite)
        for note in suite.notes { diagnostics.remark(note) }
        var defaults = CaseRunner.defaultLimits(timeout: plan.timeout, processes: Containment.maxProcesses, native: true)
        defaults.addressSpace = nil  // the runner's (1 GiB natively, 6 GiB emulated): noted only under --limit memory
        for note in suite.ceilingNotes(plan.configuration, defaults: defaults) {
            diagnostics.remark(note)
        }
        for refusal in suite.refusals { diagnostics.error(refusal) }
        if suite.missingPaths > 0 {
            throw UsageError("\(suite.missingPaths) of the paths given do not exist (named above)", fix: "name existing files or folders")
        }
        if suite.programs.isEmpty {
            if suite.emptyPaths.count == 1 && suite.problems.isEmpty { throw suite.emptyPaths[0] }
            for empty in suite.emptyPaths { diagnostics.error(empty) }
            throw UsageError(
                "no programs found in \(plan.paths.joined(separator: " "))", fix: "name .asm files or folders that hold them")
        }
        for empty in suite.emptyPaths { diagnostics.error(empty) }
        try applyFilter(&suite)
        if let shard = plan.shard {
            let timings = try plan.balancePath.map { try JSONReport.timings(at: $0) }
            let total = suite.keep(shard, timings: timings)
            if suite.programs.isEmpty {
                diagnostics.note(
                    "shard \(shard.index)/\(shard.count) holds none of the \(total) program\(total == 1 ? "" : "s") "
                        + "(the matrix is wider than the suite): nothing to run")
            }
        }
        if let selected { selected(suite.programs) }
        if let rerun = plan.rerun { suite.programs.removeAll { !rerun.keeps($0.path) } }
        return suite
    }

    /// The paths given but the reference folder and what is in it (`asmrun test * --reference
    /// reference` names it too), each left out with a note: it is what the others are graded by.
    private func submissions(of paths: [String]) -> [String] {
        guard let reference = plan.referencePath.flatMap(Files.realPath) else { return paths }
        return paths.filter { path in
            guard let real = Files.realPath(path), Files.isWithin(real, folder: reference) else { return true }
            diagnostics.remark("\(path.displayEscaped): the reference folder (or in it): left out, it is what the paths are graded by")
            return false
        }
    }

    /// `-v` lists every file not taken as a program, and why; otherwise those no program uses
    /// either (`.s` files, C files without `main`, programs a reference does not know) are
    /// counted, so a submission never vanishes silently.
    private func reportSkipped(_ suite: TestSuite) {
        if plan.verbose {
            for skipped in suite.skipped { diagnostics.note("skipped \(skipped.path): \(skipped.reason)") }
        } else if !suite.ignored.isEmpty {
            let count = suite.ignored.count
            diagnostics.note("\(count) file\(count == 1 ? "" : "s") skipped, not programs (-v lists them and why)")
        }
    }

    /// `--filter`: over every program before sharding, so a filter that matches nothing is an
    /// error whichever shard this is.
    private func applyFilter(_ suite: inout TestSuite) throws {
        guard let filter = plan.filter, let regex = try? Regex(filter) else { return }
        suite.programs = suite.programs.compactMap { $0.selecting(regex) }
        if suite.programs.isEmpty {
            throw UsageError("no case id matches --filter \(filter)", fix: "`asmrun test --list` shows the ids")
        }
    }
}
