import Support

/// `--report-dir DIR`: one Markdown report per submission (path given) for its student: the
/// score, a table of the cases with their points, and the feedback on each case that did not
/// pass (`StudentFeedback`, as Gradescope shows it).
package enum SubmissionReports {
    /// A file name and its text for each path given, in order.
    package static func render(_ scores: Scores, reference: String? = nil) -> [(name: String, text: String)] {
        let names = fileNames(scores.roots.map(\.path))
        return zip(scores.roots, names).map { root, name in
            (name, markdown(root, scrubber: PathScrubber(root: root.path, reference: reference)))
        }
    }

    /// `alice.md` for `subs/alice`; the whole path (`a_alice.md`) where two submissions share
    /// a last name, then `-2`; only letters, digits, `.`, `_` and `-`.
    static func fileNames(_ roots: [String]) -> [String] {
        let short = roots.map { safe(PathName.lastComponent(of: $0)) }
        var taken = Set<String>()
        return roots.indices.map { index in
            var base = short[index]
            if short.filter({ $0 == base }).count > 1 { base = safe(roots[index]) }
            var name = base + ".md"
            var count = 1
            while !taken.insert(name).inserted {
                count += 1
                name = "\(base)-\(count).md"
            }
            return name
        }
    }

    private static func safe(_ name: String) -> String {
        let kept = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        let trimmed = kept.drop { $0 == "." || $0 == "_" }
        return trimmed.isEmpty ? "submission" : String(trimmed)
    }

    private static func markdown(_ root: Scores.Root, scrubber: PathScrubber) -> String {
        let cases = root.programs.flatMap(\.cases).filter { $0.outcome != .skipped }
        var lines = ["# \(escaped(scrubber.clean(root.path))): \(Scores.format(root.score))/\(Scores.format(root.maxScore)) points", ""]
        lines += ["| case | points | result |", "| --- | --- | --- |"]
        for testCase in cases {
            let points = "\(Scores.format(testCase.score))/\(Scores.format(testCase.maxScore))"
            lines.append("| \(escaped(testCase.name)) | \(points) | \(result(testCase)) |")
        }
        for testCase in cases where testCase.outcome != .passed && testCase.visibility != .hidden {
            let feedback = StudentFeedback.text(testCase, scrubber: scrubber)
            let fence = String(repeating: "~", count: max(3, longestRun(of: "~", in: feedback) + 1))
            lines += [
                "", "## \(escaped(testCase.name))", "", fence, feedback.hasSuffix("\n") ? String(feedback.dropLast()) : feedback, fence,
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func result(_ testCase: Scores.Case) -> String {
        let hidden = testCase.visibility == .hidden ? " (hidden)" : ""
        switch testCase.outcome {
        case .passed: return "passed" + hidden
        case .notRun: return "not run" + hidden
        case .failed, .skipped: return "not passed" + hidden
        }
    }

    /// A name as Markdown text: control characters escaped, Markdown's own characters too.
    static func escaped(_ name: String) -> String {
        var text = ""
        for character in name.displayEscaped {
            if "\\`*_[]<>|#!".contains(character) { text.append("\\") }
            text.append(character)
        }
        return text
    }

    private static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0
        var run = 0
        for each in text {
            run = each == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
