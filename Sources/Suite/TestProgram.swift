import Compare
import Source
import Support

/// One program of a suite: its source (read once), the files it includes, its expectations and
/// the cases to run, or the problem that keeps it from running (reported as an error; the rest
/// of the suite goes on).
package struct TestProgram: Sendable {
    package let path: String
    /// The analysed source, when it could be read.
    package var source: SourceFile?
    /// Everything the source includes, resolved and hashed once for the build and for telling
    /// helper files from programs.
    package var dependencies: [Dependency] = []
    package let expectationPath: String
    /// The parsed expectations (empty when there is no file yet).
    package var expectations = ExpectationFile()
    /// Why the program cannot run, one line naming the file.
    package var problem: String?

    /// Names of the cases `--filter` selected; `nil` runs them all. The expectation file itself
    /// keeps every case, so `--update` of a selection never drops the others.
    package var selection: Set<String>?

    /// All the program's cases: the recorded ones, or one `default` case awaiting `--update`.
    package var allCases: [TestCase] {
        expectations.cases.isEmpty ? [TestCase(name: "default")] : expectations.cases
    }

    package var cases: [TestCase] {
        allCases.filter { selection?.contains($0.name) ?? true }
    }

    /// `asm/hello.asm:default`.
    package func id(of caseName: String) -> String { "\(path):\(caseName)" }

    /// Loads the source and its expectations; problems are kept, not thrown.
    package init(path: String) {
        self.path = path
        expectationPath = ExpectationFile.path(for: path)
        do {
            let source = try SourceFile.load(path)
            self.source = source
            dependencies = source.dependencies()
            if let file = try ExpectationFile.load(expectationPath) { expectations = file }
        } catch {
            problem = "\(error)"
        }
    }
}

/// Picks the programs of a suite: discovery, include-only files, sharding.
package struct TestSuite: Sendable {
    package var programs: [TestProgram]
    /// Paths that could not even be searched (missing, symlink loops), one line each.
    package var problems: [FileError]
    /// How many of the paths given do not exist (a usage error).
    package var missingPaths: Int

    /// Discovers and loads the programs under `paths`.
    package init(paths: [String], shard: (index: Int, count: Int)? = nil) {
        let found = Discovery.find(paths)
        problems = found.problems
        missingPaths = found.missing
        var loaded = found.sources.map(TestProgram.init(path:))
        // A file another program includes is a helper, not a program.
        let included = Set(loaded.flatMap { $0.dependencies.compactMap(\.path) }.map(Discovery.standardize))
        loaded.removeAll { program in
            program.source?.settings.includeOnly == true || included.contains(Discovery.standardize(program.path))
        }
        if let shard {
            loaded = loaded.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        programs = loaded
    }
}
