import Compare
import Source
import Support

/// Picks the programs of a suite: discovery, helper files, a reference's expectations, and,
/// when grading, the rules a submission cannot change.
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
    /// Programs built from files outside the path given (when graded, their submission), one
    /// line each (their cases are errors).
    package var refusals: [FileError] = []
    /// Links discovery did not follow that deserve a line (a folder link to a folder holding it,
    /// a loop of links that are not programs), and, when grading, one line per path given whose
    /// programs wrote directives only the reference and the command line may give (they were
    /// ignored). Printed escaped.
    package var notes: [String] = []
    /// When grading, per path given, the policy directives its programs wrote (and grading
    /// ignored), by name.
    package var ignoredDirectives: [(root: String, names: [String])] = []
    /// An interrupt ended discovery: the suite is incomplete and must not run.
    package var interrupted = false

    /// The paths given, in order: programs are scored per path.
    package let roots: [String]

    /// Finds and loads the programs under `given`, on `loaders` threads (their order is kept);
    /// `loaded` gets each as soon as it is read, from any of them, unless it cannot be built.
    /// With a reference, each program's expectations are the reference's, and a program it
    /// expects that a folder lacks is an error of that folder; `rules` say what else grading
    /// takes out of a submission's hands. `stop` ends discovery (an interrupt).
    /// The code of Markdown files' program blocks is written below `documents` (a folder the
    /// builds can see: the store's scratch folder).
    package init(
        paths given: [String], rules: GradingRules = GradingRules(), loaders: Int = 1, documents: String? = nil,
        stop: @escaping @Sendable () -> Bool = { false }, loaded onLoad: @escaping @Sendable (TestProgram) -> Void = { _ in }
    ) {
        let paths = Self.outermost(given)
        let found = Discovery.find(paths, stop: stop)
        roots = paths
        problems = found.problems
        missingPaths = found.missing
        temporaryFiles = found.temporaryFiles
        skipped = found.skipped
        notes = found.notes
        ignored = found.ignored
        interrupted = found.interrupted
        var plan = Plan(found, paths: paths)
        if let reference = rules.reference { plan.match(reference, &skipped, &ignored) }
        let bounds = paths.map { ProgramBounds(root: $0, reference: rules.reference?.path, graded: rules.grading) }
        let folder = documents ?? Files.currentDirectory
        let results = plan.entries.concurrentMap(threads: loaders) { entry -> Loaded in
            if case .file(let path) = entry.location, Discovery.isDocument(path), entry.key == nil {
                let found = TestProgram.documentPrograms(path, root: paths[entry.root], folder: folder)
                let documentBounds = ProgramBounds(roots: [paths[entry.root], folder], graded: rules.grading)
                let programs = found.programs.map { found in
                    var program = found
                    program.confine(within: documentBounds)
                    onLoad(program)
                    return (program: program, root: entry.root)
                }
                let named = path == paths[entry.root] && programs.isEmpty && found.skipped.isEmpty
                return Loaded(programs: programs, skipped: found.skipped, emptyDocument: named ? path : nil)
            }
            var program = TestProgram(
                entry.location, root: paths[entry.root], expectationBase: entry.key.map { rules.reference!.join($0) })
            program.referenceKey = entry.key
            if rules.grading { program.judge(by: entry.key.map { rules.reference!.policy(for: $0) } ?? ProgramSettings()) }
            program.confine(within: bounds[entry.root])
            onLoad(program)
            return Loaded(programs: [(program: program, root: entry.root)])
        }
        programs = []
        noteSkippedBlocks(results.flatMap(\.skipped))
        emptyPaths += results.compactMap(\.emptyDocument).map(Self.emptyDocument)
        let kept = removeParts(results.flatMap(\.programs))
        var byRoot = Array(repeating: [TestProgram](), count: paths.count)
        for entry in kept { byRoot[entry.root].append(entry.program) }
        for (root, entries) in byRoot.enumerated() {
            programs += group(
                entries, root: paths[root], discovered: found.foundPerRoot[root], reference: rules.reference,
                conflicts: plan.conflicts[root])
        }
        gatherRefusals(grading: rules.grading)
        if rules.grading { gatherRulings(rules) }
    }

    /// Takes out the programs another one includes or names with `with` (they are its parts) and
    /// those marked include-only, listing them as skipped. A program refused for a file outside
    /// its bounds makes nothing a part.
    private mutating func removeParts(_ loaded: [(program: TestProgram, root: Int)]) -> [(program: TestProgram, root: Int)] {
        let contributors = loaded.filter { $0.program.refusal == nil }
        let helpers = Set(contributors.flatMap(\.program.helperPaths).map(ProgramFolder.standardize))
        var parts: [(path: String, reason: String)] = []
        let part = "part of another program (included, or named with `with`)"
        let kept = loaded.filter { entry in
            let program = entry.program
            if program.program?.settings.includeOnly == true {
                parts.append((program.path, "marked include-only"))
                return false
            }
            guard helpers.contains(ProgramFolder.standardize(program.path)) else { return true }
            parts.append((program.path, part))
            return false
        }
        skipped += parts
        // A `.s` or C file a program names with `with` is one of its parts too.
        let named = Set(ignored.filter { helpers.contains(ProgramFolder.standardize($0)) })
        skipped = skipped.map { named.contains($0.path) ? ($0.path, part) : $0 }
        ignored.removeAll { named.contains($0) }
        return kept
    }

    /// One line per refused program.
    private mutating func gatherRefusals(grading: Bool) {
        for program in programs {
            guard let refusal = program.refusal else { continue }
            let fix = grading ? "a graded submission is built from its own files only" : refusal.fix(root: program.root)
            refusals.append(
                FileError(
                    path: refusal.source.path, line: refusal.source.line, problem: refusal.problem(outside: program.root),
                    fix: fix + "; its cases are errors"))
        }
    }

    /// The lines grading owes the teacher: per path given, the policy directives its programs
    /// wrote and grading ignored.
    private mutating func gatherRulings(_ rules: GradingRules) {
        let decider =
            rules.reference == nil
            ? "--untrusted leaves how programs are judged to the command line" : "the reference decides how programs are judged"
        for root in roots {
            let names = Set(programs.filter { $0.root == root }.flatMap(\.ignoredDirectives)).sorted()
            guard !names.isEmpty else { continue }
            ignoredDirectives.append((root, names))
            let list = names.map { "`\($0)`" }.joined(separator: ", ")
            notes.append("note: \(root): ignored its programs' \(list) directive\(names.count == 1 ? "" : "s"): \(decider)")
        }
    }
}
