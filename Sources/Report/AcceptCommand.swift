import Compare
import Suite
import Support

/// The command that records one failing case's new result alone, shown under its failure:
/// `accept with: asmrun test asm/hello.asm --update --filter ':default$'`, its words quoted for a
/// POSIX shell, with the run's `--runner` when it was not the default (so per-runner results are
/// recorded as the run saw them).
package struct AcceptCommand: Sendable {
    /// Words added after the filter (`--runner native,qemu`).
    package var extraArguments: [String]

    package init(extraArguments: [String] = []) { self.extraArguments = extraArguments }

    /// The line for `result` of `report`, or `nil` when `--update` would not record it (an error,
    /// a case past the output limit, an expected failure that passed).
    package func line(for report: CaseReport, _ result: RunnerResult) -> String? {
        guard result.status == .fail || result.status == .timeout, !result.outputLimitExceeded,
            !result.message.hasPrefix("passed, but is marked xfail"), !result.message.hasPrefix("scratch limit"),
            !result.message.hasPrefix("the ABI checks")
        else { return nil }
        // A Markdown block's `--update` writes its output block only.
        let markdown = [".md", ".markdown"].contains { report.program.lowercased().hasSuffix($0) }
        if markdown && result.diffs.contains(where: { $0.stream == "status" || $0.stream == "stderr" }) { return nil }
        let words = ["asmrun", "test", report.program, "--update", "--filter", ":" + Self.literal(report.caseName) + "$"] + extraArguments
        return "accept with: " + words.map(ShellWords.quoteForTerminal).joined(separator: " ")
    }

    /// `name` as a regular expression that matches it literally; a control character as
    /// `\x{HEX}`, so the pattern prints as it is.
    package static func literal(_ name: String) -> String {
        var pattern = ""
        for character in name {
            if character.unicodeScalars.contains(where: DisplayText.needsEscape) {
                for scalar in character.unicodeScalars { pattern += "\\x{" + String(scalar.value, radix: 16) + "}" }
            } else if character.isLetter || character.isNumber || character == "_" || character == "-" || character == " " {
                pattern.append(character)
            } else {
                pattern += "\\" + String(character)
            }
        }
        return pattern
    }
}
