import Compare
import Suite
import Support

/// Points earned per case, program and path given on the command line. A case earns its
/// `points:` (default 1) when it passed under every runner that ran it (an expected failure
/// counts as passed, as in the summary; a flaky one only with `--allow-flaky`); a case skipped
/// under every runner is not scored; a case that did not run (`--fail-fast`, an interrupt) or a
/// program that did not build earns 0.
package struct Scores: Sendable {
    /// One scored case.
    package struct Case: Sendable {
        enum Outcome: Sendable, Equatable { case passed, failed, notRun, skipped }
        /// `hello.asm:default`, relative to the path given (prefixed with it when several were).
        var name: String
        var score: Double
        var maxScore: Double
        var outcome: Outcome
        /// What the runners did, when the case ran.
        var report: CaseReport?
        /// Who sees its details (`visibility:` of the case).
        var visibility = Visibility.visible
        /// The case as its `.expect` file gives it: what a student's feedback shows of it.
        var testCase = TestCase(name: "")
        /// Why its program could not run, in a student's terms (`TestProgram.studentProblem`).
        var problem: String?
        /// Its gradebook column: `count.asm:two`, named after the reference's program when
        /// there is one, so every submission's case lands in the same column.
        var column = ""
    }

    /// One program's cases.
    package struct Program: Sendable {
        /// Relative to the path given (its own name when the path is the program).
        package var name: String
        package var cases: [Case]
        package var score: Double { cases.reduce(0) { $0 + $1.score } }
        var maxScore: Double { cases.reduce(0) { $0 + $1.maxScore } }
    }

    /// One path given on the command line (a submission).
    package struct Root: Sendable {
        var path: String
        var programs: [Program]
        var score: Double { programs.reduce(0) { $0 + $1.score } }
        var maxScore: Double { programs.reduce(0) { $0 + $1.maxScore } }
    }

    package var roots: [Root]
    package var score: Double { roots.reduce(0) { $0 + $1.score } }
    var maxScore: Double { roots.reduce(0) { $0 + $1.maxScore } }
    package var cases: [Case] { roots.flatMap { $0.programs.flatMap(\.cases) } }

    /// No scores.
    package init() { roots = [] }

    /// Scores the cases of `suite` from the reports of a run; a case that passed only on a retry
    /// (`flaky`) earns its points only when `allowFlaky` (`--allow-flaky`, refused when grading).
    package init(_ suite: TestSuite, reports: [CaseReport], allowFlaky: Bool = false) {
        var byID: [String: CaseReport] = [:]
        for report in reports { byID[report.id] = report }
        let several = suite.roots.count > 1
        let byRoot = Dictionary(grouping: suite.programs, by: \.root)
        var seen = Set<String>()
        roots = suite.roots.filter { seen.insert($0).inserted }.map { root in
            let programs = (byRoot[root] ?? []).map { program in
                let name = Self.relative(program.path, to: root)
                let prefix = several ? Self.trimmed(root) + "/" : ""
                let column = program.referenceKey.map(Self.programName(key:)) ?? name
                let cases = program.cases.map { testCase in
                    var scored = Self.score(
                        testCase, report: byID[program.id(of: testCase.name)], name: prefix + name + ":" + testCase.name,
                        allowFlaky: allowFlaky)
                    scored.visibility = testCase.visibility
                    scored.testCase = testCase
                    scored.problem = program.studentProblem
                    scored.column = column + ":" + testCase.name
                    return scored
                }
                return Program(name: name, cases: cases)
            }
            return Root(path: Self.trimmed(root), programs: programs)
        }
    }

    private static func score(_ testCase: TestCase, report: CaseReport?, name: String, allowFlaky: Bool) -> Case {
        guard let report else { return Case(name: name, score: 0, maxScore: testCase.worth, outcome: .notRun) }
        let ran = report.results.filter { $0.status != .skip }
        if ran.isEmpty { return Case(name: name, score: 0, maxScore: 0, outcome: .skipped, report: report) }
        let passed = ran.allSatisfy { $0.isSuccess || (allowFlaky && $0.status == .flaky) }
        return Case(
            name: name, score: passed ? testCase.worth : 0, maxScore: testCase.worth, outcome: passed ? .passed : .failed,
            report: report)
    }

    /// `count.asm` for the reference key `count`, `leap` for a folder program's `leap/leap`.
    static func programName(key: String) -> String {
        let parts = key.split(separator: "/")
        if parts.count >= 2 && parts[parts.count - 1] == parts[parts.count - 2] { return parts.dropLast().joined(separator: "/") }
        return key + ".asm"
    }

    /// `sum.asm` for `subs/bob/sum.asm` under `subs/bob/`.
    static func relative(_ path: String, to root: String) -> String { PathName.relative(path, to: root) }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// `4`, `2.5`.
    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// The console block: one line per path given, with the programs that lost points.
    package var lines: [String] {
        // Escaped like every case line: a folder named `x\n  subs/mallory  6/6` is one line.
        let width = min(40, roots.map(\.path.displayEscaped.count).max() ?? 0)
        return ["scores:"]
            + roots.map { root in
                let path = root.path.displayEscaped
                let padded = path + String(repeating: " ", count: max(0, width - path.count))
                let lost = root.programs.filter { $0.score < $0.maxScore }.map {
                    "\($0.name.displayEscaped) \(Self.format($0.score))/\(Self.format($0.maxScore))"
                }
                let detail = lost.isEmpty || root.programs.count == 1 ? "" : "  (" + lost.joined(separator: ", ") + ")"
                return "  \(padded)  \(Self.format(root.score))/\(Self.format(root.maxScore))\(detail)"
            }
    }
}
