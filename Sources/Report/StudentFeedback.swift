import Compare
import Processes
import Support

/// What a student reads about one graded case (Gradescope's test output, `--report-dir`): plain
/// sentences about what their program did and what was expected, the case's arguments and
/// input, and no runner name or path of the grading machine. A hidden case says whether it
/// passed, nothing more. The teacher's console keeps the details.
enum StudentFeedback {
    /// Characters of one output or input shown.
    static let blockLimit = 2000

    /// The feedback on `scored`, its paths cleaned by `scrubber`.
    static func text(_ scored: Scores.Case, scrubber: PathScrubber) -> String {
        if scored.visibility == .hidden { return "hidden test: " + (scored.outcome == .passed ? "passed" : "not passed") + "\n" }
        var lines = verdict(scored, scrubber)
        lines += inputs(of: scored.testCase)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func verdict(_ scored: Scores.Case, _ scrubber: PathScrubber) -> [String] {
        guard let report = scored.report else { return ["not run: grading stopped before this case"] }
        let ran = report.results.filter { $0.status != .skip }
        guard let failure = ran.first(where: \.isFailure) ?? ran.first(where: { !$0.isSuccess }) else {
            // A pass under qemu that would fail on x86 hardware: the student hears it too.
            let hardware = EmulationWarning.all(in: ran.first?.buildRemarks ?? "").map { scrubber.clean($0.rendered) }
            return ["passed"] + hardware + shownOutput(scored.testCase, ran.first)
        }
        return describe(failure, scored, scrubber)
    }

    /// What one run that did not pass did.
    private static func describe(_ failure: RunnerResult, _ scored: Scores.Case, _ scrubber: PathScrubber) -> [String] {
        switch failure.status {
        case .flaky:
            let counted = scored.outcome == .passed ? "it counts as passed" : "a case must pass on its first run to score"
            let head =
                "your program passed only when run again (attempt \(failure.attempts)): it does not do the same on every run, and \(counted)"
            guard let first = failure.failedAttempts.first else { return [head] }
            return [head, "its first run:"] + describe(first, scored, scrubber)
        case .error:
            if let problem = scored.problem { return [problem] }
            if !failure.detail.isEmpty {
                return ["your program did not build (\(scrubber.clean(failure.message))):", block(scrubber.clean(failure.detail))]
            }
            return ["your program could not be run: " + scrubber.clean(failure.message)]
        case .timeout:
            let limit = failure.timeLimit.map { String(format: "%g", $0) } ?? "its time limit"
            var lines = ["your program ran longer than \(limit) s and was stopped"]
            if let printed = failure.observation?.stdout, !printed.lines.isEmpty {
                lines += ["it printed until then:", block(printed)]
            }
            return lines
        case .interrupted: return ["not run: grading was interrupted"]
        default:
            if failure.outputLimitExceeded { return ["your program printed more than the output limit allows and was stopped"] }
            if failure.diffs.isEmpty { return ["not passed: " + scrubber.clean(failure.message)] }
            return failure.diffs.flatMap { difference(stream: $0.stream, in: failure, of: scored.testCase) } + crash(failure, scrubber)
                + shownOutput(scored.testCase, failure)
        }
    }

    /// One difference in sentences: what the program did, then what was expected.
    private static func difference(stream: String, in result: RunnerResult, of testCase: TestCase) -> [String] {
        let expected = testCase.effective(for: result.runner)
        let observed = result.observation
        switch stream {
        case "stdout":
            return printed(observed?.stdout, expected.stdout, where: "")
        case "stderr":
            return printed(observed?.stderr, expected.stderr, where: " on standard error")
        case "status":
            let actual = observed.map { ended($0.status) } ?? "ended"
            let wanted = expected.status.map { $0.description.replacing(" | ", with: " or ") } ?? "another status"
            return ["your program \(actual), but \(wanted) was expected"]
        default:
            guard stream.hasPrefix("file ") else { return [] }
            let name = String(stream.dropFirst("file ".count))
            let wanted = expected.files[name] ?? TextLines(lines: [])
            guard let written = observed?.files?[name] else {
                return ["your program did not write \(name); it should contain:", block(wanted)]
            }
            return ["your program wrote \(name):", block(written), "but this was expected:", block(wanted)]
        }
    }

    private static func printed(_ actual: TextLines?, _ expected: TextLines, where stream: String) -> [String] {
        let actual = actual ?? TextLines(lines: [])
        if actual.lines.isEmpty { return ["your program printed nothing\(stream), but this was expected:", block(expected)] }
        if expected.lines.isEmpty { return ["your program printed\(stream):", block(actual), "but nothing was expected"] }
        return ["your program printed\(stream):", block(actual), "but this was expected:", block(expected)]
    }

    /// `ended with exit 3`, `was killed by signal SIGSEGV (segmentation fault)`.
    private static func ended(_ status: Termination) -> String {
        switch status {
        case .exited(let code): "ended with exit \(code)"
        case .signaled(let signal): "was killed by signal \(Signal.name(of: signal)) (\(Signal.description(of: signal)))"
        case .timedOut: "ran out of time"
        }
    }

    /// Where it crashed, when the crash report found a line of the student's own.
    private static func crash(_ result: RunnerResult, _ scrubber: PathScrubber) -> [String] {
        guard let report = result.crash, let location = report.location else { return [] }
        var lines = ["it crashed at \(scrubber.clean(location.description))"]
        if let source = report.sourceLine { lines.append("    " + DisplayText.escape(source)) }
        return lines
    }

    /// A case that checks no output (`stdout: any`) shows what the program printed: a test
    /// driver's own report.
    private static func shownOutput(_ testCase: TestCase, _ result: RunnerResult?) -> [String] {
        guard testCase.expected.ignoresStdout, let printed = result?.observation?.stdout, !printed.lines.isEmpty else { return [] }
        return ["your program printed:", block(printed)]
    }

    /// The case's arguments, environment, standard input and input files.
    private static func inputs(of testCase: TestCase) -> [String] {
        var lines: [String] = []
        if !testCase.arguments.isEmpty { lines.append("arguments: " + testCase.arguments.map(ShellWords.quote).joined(separator: " ")) }
        if !testCase.environment.isEmpty { lines.append("environment: " + testCase.environment.joined(separator: " ")) }
        if !testCase.stdin.lines.isEmpty { lines += ["input:", block(testCase.stdin)] }
        for file in testCase.inputs { lines += ["input file \(file.name):", block(file.content)] }
        return lines
    }

    private static func block(_ text: TextLines) -> String {
        var shown = String(decoding: text.bytes, as: UTF8.self)
        if shown.hasSuffix("\n") { shown.removeLast() }
        return block(shown)
    }

    private static func block(_ text: String) -> String {
        let shown = DisplayText.escapeLines(text)
        return shown.count > blockLimit ? String(shown.prefix(blockLimit)) + "\n… (cut)" : shown
    }
}
