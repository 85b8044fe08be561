import Compare
import Support

extension TestProgram {
    /// A program of a Markdown file that cannot run: the file cannot be read, or is malformed.
    init(broken path: String, root: String, problem: FileError) {
        self.init(block: path, root: root)
        self.problem = "\(problem)"
        problemLocation = problem.location
    }

    /// The block's case, named by its line: the comment's fields (in `.expect` syntax, one per
    /// line), the output block as `stdout:`, `status: exit 0` unless the comment gives one; and
    /// the comment's `directive:` lines, the source directives it adds. A malformed field is an
    /// error at its Markdown line.
    static func documentCase(
        _ block: MarkdownDocument.ProgramBlock, in document: MarkdownDocument, path: String
    ) throws -> (ExpectationFile, [String]) {
        var text = ["[case \(block.code.line)]"]
        var lines = [block.code.line]
        var directives: [String] = []
        var fields = Set<String>()
        for (line, body) in block.comment {
            if body.hasPrefix("directive:") {
                directives.append(String(body.dropFirst("directive:".count)).trimmingBlanks())
                continue
            }
            if let colon = body.firstIndex(of: ":"), !body.hasPrefix("|"), !body.hasPrefix("~") {
                fields.insert(String(body[..<colon]).trimmingBlanks())
            }
            text.append(body)
            lines.append(line)
        }
        if let output = document.output(of: block) {
            if fields.contains("stdout") {
                throw FileError(
                    path: path, line: block.output?.line, problem: "the block's stdout is given twice: by the comment and by this block",
                    fix: "keep one of them")
            }
            text.append("stdout:")
            lines.append(block.output?.line ?? block.code.line)
            for (offset, bytes) in output.enumerated() {
                text.append("| " + String(decoding: bytes, as: UTF8.self))
                lines.append((block.output?.line ?? 0) + 1 + offset)
            }
        }
        if !fields.contains("status") {
            text.append("status: exit 0")
            lines.append(block.code.line)
        }
        do {
            return (try ExpectationFile(parsing: text.joined(separator: "\n") + "\n", path: path), directives)
        } catch let error as FileError {
            let line = error.location?.line.flatMap { $0 >= 1 && $0 <= lines.count ? lines[$0 - 1] : nil }
            throw FileError(path: path, line: line, problem: error.problem, fix: "fix the comment before the block")
        }
    }

    /// `text` with the file a block's code was written to named as the Markdown file (the line
    /// numbers are the same): for asmrun's own messages about the program.
    func naming(_ text: String) -> String {
        guard let document else { return text }
        return text.replacing(document.extracted, with: path)
    }

    /// `result` with its messages naming the Markdown file.
    func naming(_ result: RunnerResult) -> RunnerResult {
        guard document != nil else { return result }
        var named = result
        named.message = naming(result.message)
        named.detail = naming(result.detail)
        named.buildRemarks = naming(result.buildRemarks)
        named.failedAttempts = result.failedAttempts.map(naming)
        return named
    }
}
