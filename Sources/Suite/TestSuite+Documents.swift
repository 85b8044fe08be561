import Support

extension TestSuite {
    /// What loading one path found: its programs (a Markdown file has one per program block),
    /// and the blocks skipped.
    struct Loaded: Sendable {
        var programs: [(program: TestProgram, root: Int)]
        var skipped: [(path: String, reason: String)] = []
        /// A Markdown file named on the command line that holds no program block.
        var emptyDocument: String?
    }

    /// A Markdown file named on the command line without program blocks: an error, as a folder
    /// without programs is (found in a folder, such a file is zero programs and no line).
    static func emptyDocument(_ path: String) -> FileError {
        FileError(
            path: path, problem: "holds no program blocks (```nasm or ```asm)",
            fix: "mark the code of each example ```nasm, and its output ```output after it")
    }

    /// Markdown program blocks not run (marked `ignore`, fragments with no entry point): listed
    /// with `-v` among the files skipped, and counted in one note. A Markdown file without
    /// program blocks is zero programs and no note.
    mutating func noteSkippedBlocks(_ blocks: [(path: String, reason: String)]) {
        guard !blocks.isEmpty else { return }
        skipped += blocks
        let count = blocks.count
        notes.append(
            "note: \(count) Markdown program block\(count == 1 ? "" : "s") skipped: marked `ignore`, or with no entry point "
                + "(-v lists \(count == 1 ? "it" : "them"))")
    }
}
