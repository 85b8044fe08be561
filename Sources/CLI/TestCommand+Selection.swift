import Report
import Suite

extension TestCommand {
    /// Discovery, `--filter`, then `--shard`; what could not be searched and the files not
    /// taken as programs are reported here.
    func selectPrograms() throws -> TestSuite {
        var suite = TestSuite(paths: options.paths)
        for problem in suite.problems { Diagnostics.show(problem, console: context.console) }
        reportSkipped(suite)
        if suite.missingPaths > 0 {
            throw UsageError("\(suite.missingPaths) of the paths given do not exist (named above)", fix: "name existing files or folders")
        }
        if suite.programs.isEmpty {
            throw UsageError(
                "no programs found in \(options.paths.joined(separator: " "))", fix: "name .asm files or folders that hold them")
        }
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

    /// `-v` lists every file not taken as a program, and why.
    private func reportSkipped(_ suite: TestSuite) {
        guard options.verbose else { return }
        for skipped in suite.skipped { context.console.write("note: skipped \(skipped.path): \(skipped.reason)\n", to: .error) }
    }

    /// `--filter`: over every program before sharding, so a filter that matches nothing is an
    /// error whichever shard this is.
    private func applyFilter(_ suite: inout TestSuite) throws {
        guard let filter = options.filter, let regex = try? Regex(filter) else { return }
        suite.programs = suite.programs.compactMap { program in
            var selected = program
            let names = program.allCases.map(\.name).filter { program.id(of: $0).contains(regex) }
            guard !names.isEmpty else { return nil }
            selected.selection = Set(names)
            return selected
        }
        if suite.programs.isEmpty {
            throw UsageError("no case id matches --filter \(filter)", fix: "`asmrun test --list` shows the ids")
        }
    }
}
