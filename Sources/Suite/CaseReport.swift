import Compare

/// One case of one program under every runner, plus how the runners disagree.
package struct CaseReport: Sendable {
    package var program: String
    package var caseName: String
    /// One result per runner, in runner order.
    package var results: [RunnerResult]
    /// When runners disagree and one of them fails: both sides, as diffs.
    package var divergence: String?
    /// Seconds spent building the program (shared by its cases).
    package var buildDuration: Double = 0
    /// Counted but not printed case by case: one line said it for the whole submission (an
    /// empty one, when grading).
    package var quiet = false
    /// Who sees the case's details once graded (`visibility:` of its case).
    package var visibility = Visibility.visible

    /// `asm/hello.asm:default`.
    package var id: String { "\(program):\(caseName)" }
}

extension CaseReport {
    /// A case read back from a report (`asmrun report merge`); the rest as it defaults.
    package init(program: String, caseName: String, results: [RunnerResult]) {
        self.init(program: program, caseName: caseName, results: results, divergence: nil)
    }
}
