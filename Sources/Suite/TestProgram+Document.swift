import Compare
import Source
import Support

/// A program block of a Markdown file as a program of the suite: its code is written to a file
/// of the run's scratch folder, whose line N is the Markdown's line N (a `%line` directive names
/// the Markdown file, so nasm's messages point into it), and its case is the block's.
package struct DocumentBlock: Sendable {
    /// Its position among the file's program blocks: how recording finds it again.
    let index: Int
    /// The 1-based line of its opening fence: the case's name.
    let line: Int
    /// Its code lines, to check recording writes after the block that ran.
    let code: [String]
    /// The file its code was written to.
    let extracted: String
    /// The line of its output block's opening fence, or of the block itself.
    let expectationLine: Int
}

extension TestProgram {
    /// The programs of the Markdown file at `path`, with their code written below `folder`, and
    /// the blocks skipped (marked `ignore`, or a fragment with no entry point) with the reason.
    /// A file that cannot be read, or a comment no block follows, is one program with the problem.
    static func documentPrograms(
        _ path: String, root: String, folder: String
    ) -> (programs: [TestProgram], skipped: [(path: String, reason: String)]) {
        // The name goes on the code's `%line` line: a line break there would be a line of code.
        if path.contains(where: { $0 == "\n" || $0 == "\r" }) {
            let problem = FileError(path: path, problem: "has a line break in its name", fix: "rename it")
            return ([TestProgram(broken: path, root: root, problem: problem)], [])
        }
        let document: MarkdownDocument
        do { document = MarkdownDocument(try Files.read(path)) } catch {
            return ([TestProgram(broken: path, root: root, problem: FileError(path: path, problem: error.problem, fix: "check it"))], [])
        }
        if let stray = document.strayComments.first {
            let problem = FileError(
                path: path, line: stray, problem: "an `<!-- asmrun: … -->` comment that no ```nasm block follows",
                fix: "put it just before the block it is for (blank lines may stand between)")
            return ([TestProgram(broken: path, root: root, problem: problem)], [])
        }
        var programs: [TestProgram] = []
        var skipped: [(path: String, reason: String)] = []
        let key = SHA256.hex(Array(ProgramFolder.standardize(path).utf8)).prefix(12)
        for block in document.programs {
            let id = "\(path):\(block.code.line)"
            if block.ignored {
                skipped.append((id, "a program block marked `ignore`"))
                continue
            }
            var test = TestProgram(block: path, root: root)
            let extracted = "\(folder)/\(key)-\(block.code.line)/\(Self.stem(of: path)).asm"
            test.document = DocumentBlock(
                index: block.index, line: block.code.line, code: document.code(of: block), extracted: extracted,
                expectationLine: block.output?.line ?? block.code.line)
            do {
                let (expectations, directives) = try Self.documentCase(block, in: document, path: path)
                test.expectations = expectations
                test.program = try Self.extract(block, of: document, from: path, to: extracted, directives: directives)
            } catch {
                // The case keeps the block's name, so its error has the block's id.
                test.expectations.cases = [TestCase(name: "\(block.code.line)")]
                test.problem = test.naming("\(error)")
                test.problemLocation = (error as? any AsmRunError)?.location
            }
            if let program = test.program, !program.assembly.contains(where: { $0.definesStart || $0.definesMain }) {
                skipped.append((id, "a program block with no entry point (`_start` or `main`): a fragment"))
                continue
            }
            programs.append(test)
        }
        return (programs, skipped)
    }

    /// `tutorial` for `docs/tutorial.md`: the program's name (`./tutorial` is its argv[0]).
    private static func stem(of path: String) -> String {
        let stem = PathName.removingExtension(PathName.lastComponent(of: path))
        return stem.isEmpty || stem.hasPrefix(".") ? "doc" : stem
    }

    /// Writes the block's code (its lines at the Markdown's line numbers, `directives` after it)
    /// and loads it; the Markdown's folder is searched for `%include`s.
    private static func extract(
        _ block: MarkdownDocument.ProgramBlock, of document: MarkdownDocument, from path: String, to extracted: String,
        directives: [String]
    ) throws -> Program {
        let first = block.code.line + 1
        // nasm numbers the line after `%line 1+1` as 2: line N of the file is line N of the Markdown.
        var lines = ["%line 1+1 \(path)"] + Array(repeating: "", count: max(0, first - 2))
        lines += document.code(of: block) + directives.map { "; asmrun: " + $0 }
        guard Files.makeDirectories(PathName.directory(of: extracted)) else {
            throw FileError(path: extracted, problem: "cannot be created", fix: "check the scratch folder")
        }
        try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: extracted)
        // Named by the Markdown file, as the user named it: its folder is the build view's.
        let source = try SourceFile.load(extracted)
        var program = Program(path: path, name: stem(of: path), isFolder: false, assembly: [source])
        try program.add(source.settings.sources)
        let folder = PathName.directory(of: path)
        program.settings.includeDirectories.append(folder.isEmpty ? "." : folder)
        program.resolveDependencies()
        return program
    }
}
