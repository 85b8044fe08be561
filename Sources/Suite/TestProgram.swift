import Compare
import Source
import Support

/// One program of a suite: its sources (read once), its expectations, the files its cases get,
/// and the cases to run; or the problem that keeps it from running (reported as an error; the
/// rest of the suite goes on).
package struct TestProgram: Sendable {
    /// The file or folder as discovered; case ids start with it.
    package let path: String
    /// The program, when it could be read.
    package var program: Program?
    /// `NAME.expect` beside `NAME.asm`; `FOLDER/FOLDER.expect` for a folder.
    package let expectationPath: String
    /// `NAME.files/` beside the expectations: copied into every case's folder, when it exists.
    package let fileFolder: String?
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

    /// The program with only the cases whose ids match `filter` selected; `nil` when none does.
    package func selecting(_ filter: Regex<AnyRegexOutput>) -> TestProgram? {
        var selected = self
        let names = allCases.map(\.name).filter { id(of: $0).contains(filter) }
        guard !names.isEmpty else { return nil }
        selected.selection = Set(names)
        return selected
    }

    /// Loads a file program; problems are kept, not thrown.
    package init(path: String) { self.init(Discovery.Location.file(path)) }

    /// Loads the program at `location`, then its expectations.
    init(_ location: Discovery.Location) {
        path = location.path
        let base: String
        switch location {
        case .file(let file): base = PathName.removingExtension(file)
        case .folder(let folder):
            let name = PathName.lastComponent(of: ProgramFolder.standardize(folder))
            base = (folder.hasSuffix("/") ? folder : folder + "/") + name
        }
        expectationPath = base + ".expect"
        fileFolder = Files.isDirectory(base + ".files") ? base + ".files" : nil
        do {
            switch location {
            case .file(let file): program = try Program.load(file: file)
            case .folder(let folder): program = try Program.load(folder: folder)
            }
            if let file = try ExpectationFile.load(expectationPath) { expectations = file }
        } catch {
            problem = "\(error)"
        }
    }

    /// The object format its runners are chosen by (the build may still find it is elf32).
    package var format: ObjectFormat { program?.format ?? .elf64 }

    /// Files it takes from other programs' folders: what its sources include or name with `with`.
    var helperPaths: [String] {
        guard let program else { return [] }
        let included = program.dependencies.values.flatMap { $0.compactMap(\.path) }
        return included + program.files.dropFirst(program.isFolder ? program.files.count : 1)
    }
}

/// Picks the programs of a suite: discovery, helper files, sharding.
package struct TestSuite: Sendable {
    /// The programs in report order.
    package var programs: [TestProgram]
    /// Paths that could not even be searched (missing, symlink loops), one line each.
    package var problems: [FileError]
    /// Files that look like sources but are not programs, with the reason.
    package var skipped: [(path: String, reason: String)]
    /// How many of the paths given do not exist (a usage error).
    package var missingPaths: Int
    /// Temporary files of `.expect` rewrites found beside the sources, as (folder, name): a run
    /// that died while writing may have left them (see `AtomicFile.removeAbandoned`).
    package var temporaryFiles: [(folder: String, name: String)]

    /// Discovers and loads the programs under `paths`, handing each to `loaded` as soon as it is
    /// read (before the parts of other programs are told apart and the shard is taken).
    package init(paths: [String], shard: (index: Int, count: Int)? = nil, loaded onLoad: (TestProgram) -> Void = { _ in }) {
        let found = Discovery.find(paths)
        problems = found.problems
        missingPaths = found.missing
        temporaryFiles = found.temporaryFiles
        skipped = found.skipped
        var loaded = found.programs.map { location in
            let program = TestProgram(location)
            onLoad(program)
            return program
        }
        // A file another program includes or names with `with` is a part, not a program.
        let helpers = Set(loaded.flatMap(\.helperPaths).map(ProgramFolder.standardize))
        var parts: [(path: String, reason: String)] = []
        loaded.removeAll { program in
            let standard = ProgramFolder.standardize(program.path)
            if program.program?.settings.includeOnly == true {
                parts.append((program.path, "marked include-only"))
                return true
            }
            guard helpers.contains(standard) else { return false }
            parts.append((program.path, "part of another program (included, or named with `with`)"))
            return true
        }
        skipped += parts
        if let shard {
            loaded = loaded.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        programs = loaded
    }
}
