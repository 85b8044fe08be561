import Report
import Run
import Sandbox
import Suite
import Support

extension TestCommand {
    /// Discovery (with the reference), `--filter`, then `--shard`; what could not be searched,
    /// folders that hold no program and the files not taken as programs are reported here.
    /// `loaded` gets each program as soon as it is read (to build it ahead).
    func selectPrograms(
        documents: String, stop: @escaping @Sendable () -> Bool = { false },
        loaded: @escaping @Sendable (TestProgram) -> Void = { _ in }
    ) throws -> TestSuite {
        let reference = try options.referencePath.map { try Reference(path: $0) }
        let rules = GradingRules(reference: reference, untrusted: options.untrusted)
        var suite = TestSuite(
            paths: options.paths, rules: rules, loaders: options.filter == nil ? options.jobs : 1, documents: documents, stop: stop,
            loaded: loaded)
        if suite.interrupted { return suite }
        for problem in suite.problems { Diagnostics.show(problem, console: context.console) }
        reportSkipped(suite)
        for note in suite.notes { context.console.write(DisplayText.escape(note) + "\n", to: .error) }
        var defaults = CaseRunner.defaultLimits(timeout: options.timeout, processes: Containment.maxProcesses, native: true)
        defaults.addressSpace = nil  // the runner's (1 GiB natively, 6 GiB emulated): noted only under --limit memory
        for note in suite.ceilingNotes(options.configuration, defaults: defaults) {
            context.console.write(DisplayText.escape(note) + "\n", to: .error)
        }
        for refusal in suite.refusals { Diagnostics.show(refusal, console: context.console) }
        if suite.missingPaths > 0 {
            throw UsageError("\(suite.missingPaths) of the paths given do not exist (named above)", fix: "name existing files or folders")
        }
        if suite.programs.isEmpty {
            if suite.emptyPaths.count == 1 && suite.problems.isEmpty { throw suite.emptyPaths[0] }
            for empty in suite.emptyPaths { Diagnostics.show(empty, console: context.console) }
            throw UsageError(
                "no programs found in \(options.paths.joined(separator: " "))", fix: "name .asm files or folders that hold them")
        }
        for empty in suite.emptyPaths { Diagnostics.show(empty, console: context.console) }
        try applyFilter(&suite)
        if let shard = options.shard {
            let timings = try options.balancePath.map { try JSONReport.timings(at: $0) }
            let total = suite.keep(shard, timings: timings)
            if suite.programs.isEmpty {
                context.console.write(
                    "note: shard \(shard.index)/\(shard.count) holds none of the \(total) program\(total == 1 ? "" : "s") "
                        + "(the matrix is wider than the suite): nothing to run\n", to: .error)
            }
        }
        return suite
    }

    /// `-v` lists every file not taken as a program, and why; otherwise those no program uses
    /// either (`.s` files, C files without `main`, programs a reference does not know) are
    /// counted, so a submission never vanishes silently.
    private func reportSkipped(_ suite: TestSuite) {
        if options.verbose {
            for skipped in suite.skipped { context.console.write("note: skipped \(skipped.path): \(skipped.reason)\n", to: .error) }
        } else if !suite.ignored.isEmpty {
            let count = suite.ignored.count
            context.console.write("note: \(count) file\(count == 1 ? "" : "s") skipped, not programs (-v lists them and why)\n", to: .error)
        }
    }

    /// `--filter`: over every program before sharding, so a filter that matches nothing is an
    /// error whichever shard this is.
    private func applyFilter(_ suite: inout TestSuite) throws {
        guard let filter = options.filter, let regex = try? Regex(filter) else { return }
        suite.programs = suite.programs.compactMap { $0.selecting(regex) }
        if suite.programs.isEmpty {
            throw UsageError("no case id matches --filter \(filter)", fix: "`asmrun test --list` shows the ids")
        }
    }
}
