import Report
import Suite

/// How a `TestSession` run ended: what a front end prints and decides its exit status from.
package struct TestOutcome: Sendable {
    /// The cases' reports, and whether every case ran.
    package var suite: SuiteOutcome
    /// The results counted.
    package var tally: Tally
    /// The scores' lines, when the run is graded or has points; empty otherwise.
    package var scoreLines: [String] = []
    /// An interrupt (Ctrl-C, SIGTERM) ended the run.
    package var interrupted = false
    /// Why the run stopped early, when it did (`interrupted`, `--fail-fast`).
    package var reason: String?
    package var seconds: Double = 0
    /// Paths given that could not be searched or held no program.
    package var pathProblems = 0
    /// Reports (`--json`, `--junit`, …) that could not be written (each error emitted).
    package var unwrittenReports = 0

    init(suite: SuiteOutcome, tally: Tally) {
        self.suite = suite
        self.tally = tally
    }

    package var complete: Bool { suite.complete }
}
