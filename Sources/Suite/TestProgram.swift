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
    /// The file and line the problem is at (a malformed `.expect` line), for annotations.
    package var problemLocation: FileLocation?
    /// The path given on the command line that it was found under: scores are per root.
    package var root: String

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
    package init(path: String) { self.init(Discovery.Location.file(path), root: path) }

    /// Loads the program at `location`, then its expectations: from beside it, or from
    /// `expectationBase` + `.expect` (a reference folder's).
    init(_ location: Discovery.Location, root: String, expectationBase: String? = nil) {
        path = location.path
        self.root = root
        let base = expectationBase ?? Self.expectationBase(of: location)
        expectationPath = base + ".expect"
        fileFolder = Files.isDirectory(base + ".files") ? base + ".files" : nil
        do {
            switch location {
            case .file(let file): program = try Program.load(file: file)
            case .folder(let folder): program = try Program.load(folder: folder)
            }
            for path in [expectationPath, base + ".files"] { try Self.refuseEscapingLink(path) }
            if let file = try ExpectationFile.load(expectationPath) { expectations = file }
        } catch {
            problem = "\(error)"
            problemLocation = (error as? any AsmRunError)?.location
        }
    }

    /// A `.expect` file or `.files` folder that is a symbolic link out of the folder holding it
    /// is not read: its target (/etc/shadow, /proc/self/environ) would reach the log, the
    /// reports and the case.
    static func refuseEscapingLink(_ path: String) throws {
        let folder = PathName.directory(of: path)
        guard let target = Files.escapingLink(path, folder: folder.isEmpty ? "." : folder) else { return }
        throw FileError(
            path: path, problem: "is a symbolic link out of the program's folder (to \(target.displayEscaped)): not read",
            fix: "put the file itself there, or a link to a file beside it")
    }

    /// `NAME` for `NAME.asm`, `FOLDER/FOLDER` for a folder: its expectations are that + `.expect`.
    static func expectationBase(of location: Discovery.Location) -> String {
        switch location {
        case .file(let file): return PathName.removingExtension(file)
        case .folder(let folder):
            let name = PathName.lastComponent(of: ProgramFolder.standardize(folder))
            return (folder.hasSuffix("/") ? folder : folder + "/") + name
        }
    }

    /// A program the reference expects that the submission under `root` does not have: its
    /// cases (and their points) are errors, so the score counts them.
    init(missing path: String, root: String, expectations file: ExpectationFile, expectationPath: String) {
        self.path = path
        self.root = root
        self.expectationPath = expectationPath
        fileFolder = nil
        expectations = file
        problem = "missing: \(root) has no such program (the reference's \(expectationPath) is for it)"
    }

    /// Where a CI annotation about `testCase` points: the line of its `.expect` with the field
    /// that failed for `runner` (the case's own line when that field is not written), or the
    /// first line of the program's main source when the case is in no file yet.
    func location(of testCase: TestCase, stream: String?, runner: String) -> FileLocation {
        if let line = testCase.lines.line(of: stream, runner: runner) { return FileLocation(expectationPath, line: line) }
        return FileLocation(program?.files.first ?? path, line: 1)
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

/// Picks the programs of a suite: discovery, helper files, a reference's expectations.
package struct TestSuite: Sendable {
    /// The paths given without those another one given already covers (the same path twice, a
    /// folder or file inside another), so each program has one root and a submission's score
    /// counts each program once.
    static func outermost(_ paths: [String]) -> [String] {
        let standard = paths.map(ProgramFolder.standardize)
        return paths.indices.filter { index in
            // A path that does not exist is never covered: discovery names it.
            !Files.exists(paths[index])
                || !standard.indices.contains { other in
                    other != index
                        && (standard[other] == standard[index] ? other < index : standard[index].hasPrefix(standard[other] + "/"))
                }
        }.map { paths[$0] }
    }

    /// The programs in report order (grouped by the path given that they were found under).
    package var programs: [TestProgram]
    /// Paths that could not even be searched (missing, symlink loops), one line each.
    package var problems: [FileError]
    /// Folders given on the command line that hold no program at all, one line each.
    package var emptyPaths: [FileError] = []
    /// Files that look like sources but are not programs of their own, with the reason.
    package var skipped: [(path: String, reason: String)]
    /// The skipped files that are not parts of a program either (`.s` files, C files without
    /// `main`, programs a reference has no expectations for): counted in every run.
    package var ignored: [String]
    /// How many of the paths given do not exist (a usage error).
    package var missingPaths: Int
    /// Temporary files of `.expect` rewrites found beside the sources, as (folder, name): a run
    /// that died while writing may have left them (see `AtomicFile.removeAbandoned`).
    package var temporaryFiles: [(folder: String, name: String)]

    /// The paths given, in order: programs are scored per path.
    package let roots: [String]

    /// Discovers and loads the programs under `paths`, handing each to `loaded` as soon as it is
    /// read (before the parts of other programs are told apart; a program a reference has no
    /// expectations for is not handed on). With a `reference`, each program's expectations are
    /// the reference's, and a program it expects that a folder lacks is an error of that folder.
    /// Finds and loads the programs under `given`, on `loaders` threads (their order is kept);
    /// `onLoad` gets each as soon as it is read, from any of them.
    package init(
        paths given: [String], reference: Reference? = nil, loaders: Int = 1,
        loaded onLoad: @escaping @Sendable (TestProgram) -> Void = { _ in }
    ) {
        let paths = Self.outermost(given)
        let found = Discovery.find(paths)
        roots = paths
        problems = found.problems
        missingPaths = found.missing
        temporaryFiles = found.temporaryFiles
        skipped = found.skipped
        ignored = found.ignored
        let folders = reference == nil ? [] : paths.map(Files.isDirectory)
        var loaded = Array(zip(found.programs, found.roots)).concurrentMap(threads: loaders) { location, root in
            let base = reference.flatMap { $0.base(for: Reference.key(of: location, under: paths[root], isFolder: folders[root])) }
            let program = TestProgram(location, root: paths[root], expectationBase: base)
            if reference == nil || base != nil { onLoad(program) }
            return (program: program, root: root, referenced: base != nil)
        }
        // A file another program includes or names with `with` is a part, not a program.
        let helpers = Set(loaded.flatMap(\.program.helperPaths).map(ProgramFolder.standardize))
        var parts: [(path: String, reason: String)] = []
        let part = "part of another program (included, or named with `with`)"
        loaded.removeAll { entry in
            let program = entry.program
            let standard = ProgramFolder.standardize(program.path)
            if program.program?.settings.includeOnly == true {
                parts.append((program.path, "marked include-only"))
                return true
            }
            guard helpers.contains(standard) else { return false }
            parts.append((program.path, part))
            return true
        }
        skipped += parts
        // A `.s` or C file a program names with `with` is one of its parts too.
        let named = Set(ignored.filter { helpers.contains(ProgramFolder.standardize($0)) })
        skipped = skipped.map { named.contains($0.path) ? ($0.path, part) : $0 }
        ignored.removeAll { named.contains($0) }
        var byRoot = Array(repeating: [(program: TestProgram, referenced: Bool)](), count: paths.count)
        for entry in loaded { byRoot[entry.root].append((entry.program, entry.referenced)) }
        programs = []
        for (root, entries) in byRoot.enumerated() {
            programs += group(entries, root: paths[root], discovered: found.foundPerRoot[root], reference: reference)
        }
    }
}
