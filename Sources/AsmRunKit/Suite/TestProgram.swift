import Foundation

/// One program of a suite: its source, its expectations and the cases to run, or the problem
/// that keeps it from running (reported as an error, the rest of the suite goes on).
public struct TestProgram: Sendable {
    /// The path as discovered.
    public let path: String
    /// The analysed source, when it could be read.
    public var source: SourceFile?
    /// The `.expect` file's path.
    public let expectationPath: String
    /// The parsed expectations (empty when there is no file yet).
    public var expectations = ExpectationFile()
    /// Why the program cannot run, one line naming the file.
    public var problem: String?

    /// Names of the cases `--filter` selected; `nil` runs them all. The expectation file itself
    /// keeps every case, so `--update` of a selection never drops the others.
    public var selection: Set<String>?

    /// All the program's cases: the recorded ones, or one `default` case awaiting `--update`.
    public var allCases: [TestCase] {
        expectations.cases.isEmpty ? [TestCase(name: "default")] : expectations.cases
    }

    /// The cases to run.
    public var cases: [TestCase] {
        allCases.filter { selection?.contains($0.name) ?? true }
    }

    /// `asm/hello.asm:default`.
    public func id(of caseName: String) -> String { "\(path):\(caseName)" }

    /// Loads the source and its expectations; problems are kept, not thrown.
    public init(path: String) {
        self.path = path
        expectationPath = ExpectationFile.path(for: path)
        do {
            source = try SourceFile.load(path)
        } catch {
            problem = "\(error)"
            return
        }
        do {
            if let file = try ExpectationFile.load(expectationPath) {
                expectations = file
            }
        } catch {
            problem = "\(error)"
        }
    }
}

/// Picks the programs of a suite: discovery, include-only files, sharding.
public struct TestSuite: Sendable {
    /// The programs in report order.
    public var programs: [TestProgram]
    /// Paths that could not even be searched (missing, symlink loops), one line each.
    public var problems: [String]
    /// How many of the paths given do not exist (a usage error).
    public var missingPaths: Int

    /// Discovers and loads the programs under `paths`.
    public init(paths: [String], shard: (index: Int, count: Int)? = nil) {
        let found = Discovery.find(paths)
        problems = found.problems.map(\.description)
        missingPaths = found.missing
        var loaded = found.sources.map(TestProgram.init(path:))
        var included = Set<String>()
        for program in loaded {
            guard let source = program.source,
                let data = FileManager.default.contents(atPath: source.path)
            else { continue }
            let scanner = IncludeScanner(searchDirectories: [source.directory] + source.settings.includeDirectories)
            for dependency in scanner.dependencies(of: source, text: String(decoding: data, as: UTF8.self)) {
                if let path = dependency.path { included.insert(Discovery.standardize(path)) }
            }
        }
        let isHelper = { (program: TestProgram) in
            program.source?.settings.includeOnly == true || included.contains(Discovery.standardize(program.path))
        }
        loaded.removeAll(where: isHelper)
        if let shard {
            loaded = loaded.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        programs = loaded
    }
}
