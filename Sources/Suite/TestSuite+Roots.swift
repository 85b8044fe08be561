import Compare
import Support

extension TestSuite {
    /// The programs found under one path given: with a reference, those it grades, then one
    /// program per reference program nothing claimed (an error: missing, or several candidates
    /// named in `conflicts`). A folder where discovery found nothing (`discovered` is 0; programs
    /// another path given also holds count) is named in `emptyPaths`.
    mutating func group(
        _ found: [TestProgram], root: String, discovered: Int, reference: Reference?,
        conflicts: [(key: String, candidates: [String])]
    ) -> [TestProgram] {
        var programs = found
        let empty = found.isEmpty && discovered == 0 && Files.isDirectory(root)
        if empty { emptyPaths.append(emptyFolder(root, graded: reference != nil)) }
        if let reference, Files.isDirectory(root) {
            let claimed = Set(found.compactMap(\.referenceKey))
            let clashes = Dictionary(conflicts.map { ($0.key, $0.candidates) }) { first, _ in first }
            for key in reference.keys where !claimed.contains(key) {
                var program = Self.missing(key, root: root, reference: reference, candidates: clashes[key] ?? [])
                // An empty submission: the one line above says it, its cases are scored 0.
                if empty {
                    program.quiet = true
                    program.studentProblem = "your submission holds no programs (no .asm or .nasm file)"
                }
                programs.append(program)
            }
        }
        return programs
    }

    /// What the reference expects at `key` and the submission at `root` does not have, or has
    /// several `candidates` for.
    private static func missing(_ key: String, root: String, reference: Reference, candidates: [String]) -> TestProgram {
        let expectationPath = reference.join(key) + ".expect"
        let parts = key.split(separator: "/")
        let isFolder = parts.count >= 2 && parts[parts.count - 1] == parts[parts.count - 2]
        let relative = isFolder ? parts.dropLast().joined(separator: "/") : key + ".asm"
        let path = root.hasSuffix("/") ? root + relative : root + "/" + relative
        var file = ExpectationFile()
        var problem: (text: String, location: FileLocation?)?
        do {
            file = try ExpectationFile.load(expectationPath) ?? file
        } catch {
            problem = ("\(error)", (error as? any AsmRunError)?.location)
        }
        var program = TestProgram(missing: path, root: root, expectations: file, expectationPath: expectationPath)
        program.referenceKey = key
        program.studentProblem = "your submission has no \(relative)"
        if !candidates.isEmpty {
            let names = candidates.map { PathName.relative($0, to: root) }.joined(separator: ", ")
            program.problem = "\(root) holds several programs that could be \(relative): \(names); keep one"
            program.studentProblem = "your submission holds several programs that could be \(relative): \(names); keep one"
        }
        if let problem {
            program.problem = problem.text
            program.problemLocation = problem.location
        }
        return program
    }

    /// `DIR holds no programs`, naming what was skipped there; `graded`, that it scores 0.
    private func emptyFolder(_ root: String, graded: Bool) -> FileError {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let here = skipped.filter { $0.path.hasPrefix(prefix) || root == "." }.map { PathName.lastComponent(of: $0.path) }
        var problem = "holds no programs (no .asm or .nasm file, no folder with a C main or FOLDER.expect)"
        if !here.isEmpty {
            let named = here.prefix(3).joined(separator: ", ") + (here.count > 3 ? ", …" : "")
            problem += "; \(here.count) file\(here.count == 1 ? "" : "s") skipped: \(named) (-v says why)"
        }
        if graded { return FileError(path: root, problem: problem + ": it scores 0", fix: "nothing of it can be graded") }
        return FileError(path: root, problem: problem, fix: "name the folder that holds the sources, or rename them to .asm")
    }
}
