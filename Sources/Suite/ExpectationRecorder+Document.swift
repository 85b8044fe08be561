import Compare
import Support

extension ExpectationRecorder {
    /// `--update` of a Markdown program block: its output block is rewritten (or added after
    /// it) with what the baseline runner printed, every other byte of the file kept. The file is
    /// read as it is now and the block found again by its position; one whose code changed
    /// meanwhile is not recorded. Only stdout is written: a status or stderr the block does not
    /// expect is said, with the comment that would expect it, and not recorded.
    func recordDocument(
        _ program: TestProgram, _ block: DocumentBlock, _ ran: TestCase, _ observations: [(runner: String, observation: Observation)]
    ) throws -> Outcome {
        var outcome = Outcome()
        let path = program.path
        let document = MarkdownDocument(try Files.read(path))
        guard block.index < document.programs.count, document.code(of: document.programs[block.index]) == block.code else {
            outcome.skipped[ran.name] = "its block in \(path) changed while it ran; run `asmrun test --update` again"
            return outcome
        }
        let current = document.programs[block.index]
        let baseline = observations[0]
        let expected = ran.effective(for: baseline.runner)
        if let status = expected.status, !status.accepts(baseline.observation.status) {
            outcome.skipped[ran.name] =
                "it ended with \(baseline.observation.status.summary); if it should, put "
                + "`<!-- asmrun: status: \(baseline.observation.status.summary) -->` just before its block"
            return outcome
        }
        if !Pattern(expected.stderr).matches(baseline.observation.stderr) {
            outcome.skipped[ran.name] =
                "it printed on stderr, which a block expects empty; if it should, put `<!-- asmrun: stderr: any -->` just before it"
            return outcome
        }
        let stdout = baseline.observation.stdout
        if expected.stdout == .anything || (current.output != nil && Pattern(expected.stdout).matches(stdout)) { return outcome }
        if stdout.lines.isEmpty && current.output == nil { return outcome }
        if let unfit = Self.unfit(stdout) {
            outcome.skipped[ran.name] = "its output \(unfit), which an output block cannot hold; check it with a `.asm` file and `.expect`"
            return outcome
        }
        let lines = stdout.lines.map { String(decoding: $0, as: UTF8.self) }
        guard let bytes = document.replacingOutput(of: current, with: lines) else {
            outcome.skipped[ran.name] = "its block in \(path) is not closed; close it with a fence"
            return outcome
        }
        for other in observations.dropFirst() where other.observation.stdout != stdout {
            outcome.remarks.append(
                "\(program.id(of: ran.name)) [\(other.runner)]: prints otherwise than \(baseline.runner); recorded \(baseline.runner)'s output"
            )
        }
        try AtomicFile.write(bytes, to: path)
        outcome.written = path
        return outcome
    }

    /// Why `output` cannot be written as an output block: bytes that are not printable text, or no
    /// newline at its end.
    private static func unfit(_ output: TextLines) -> String? {
        if output.lines.contains(where: { !TextLines.isPlain($0) }) { return "holds bytes that are not printable text" }
        if !output.endsWithNewline { return "does not end with a newline" }
        return nil
    }
}
