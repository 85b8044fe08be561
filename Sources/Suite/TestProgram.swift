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
    var problemLocation: FileLocation?
    /// The path given on the command line that it was found under: scores are per root.
    package var root: String
    /// The reference program it is graded as (`count`, `leap/leap`), with `--reference`.
    package var referenceKey: String?
    /// Graded: the policy directives its source gave that grading ignored (`skip`, `xfail`).
    package var ignoredDirectives: [String] = []
    /// The file outside its bounds it is built from, when it is refused.
    var refusal: ProgramBounds.Refusal?
    /// Why it cannot run, in a student's terms (no path of the grading machine), when `problem`
    /// names the grader's paths.
    package var studentProblem: String?
    /// Its cases are counted and scored but not reported one by one (`CaseReport.quiet`).
    package var quiet = false

    /// The Markdown program block it is, for a doc-test (its `path` and `expectationPath` are
    /// then the Markdown file's).
    package var document: DocumentBlock?

    /// Names of the cases `--filter` selected; `nil` runs them all. The expectation file itself
    /// keeps every case, so `--update` of a selection never drops the others.
    var selection: Set<String>?

    /// All the program's cases: the recorded ones, or one `default` case awaiting `--update`.
    package var allCases: [TestCase] {
        expectations.cases.isEmpty ? [TestCase(name: "default")] : expectations.cases
    }

    package var cases: [TestCase] {
        allCases.filter { selection?.contains($0.name) ?? true }
    }

    /// What names its build: its path, or for a Markdown block the file its code was written to
    /// (the blocks of one file share its path).
    var buildKey: String { document?.extracted ?? path }

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
        } catch {
            keep(error)
        }
        // Read even when the program could not be: its cases (a reference's, with their
        // points) are then each an error, so a source that fails to load does not shrink the
        // maximum to one `default` case.
        do {
            for path in [expectationPath, base + ".files"] { try Self.refuseEscapingLink(path) }
            if let file = try ExpectationFile.load(expectationPath) { expectations = file }
        } catch {
            if problem == nil { keep(error) }
        }
    }

    /// Keeps `error` as the reason the program cannot run.
    private mutating func keep(_ error: any Error) {
        problem = "\(error)"
        problemLocation = (error as? any AsmRunError)?.location
    }

    /// A program block of the Markdown file at `path` (`documentPrograms` fills it in).
    init(block path: String, root: String) {
        self.path = path
        self.root = root
        expectationPath = path
        fileFolder = nil
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
        if let document { return FileLocation(path, line: document.expectationLine) }
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
