/// What the programs of a suite may not decide for themselves. Graded (`--reference DIR`, or
/// `--untrusted` without one), a program's directives that decide a verdict, a score, a limit or
/// how its runners run it are replaced by the reference's (or the defaults and the command
/// line), and it is built from files inside its own submission only.
package struct GradingRules: Sendable {
    /// The folder of expectations every submission is checked against.
    package var reference: Reference?
    /// `--untrusted`: the same rules without a reference (CI on strangers' pull requests).
    package var untrusted: Bool

    package init(reference: Reference? = nil, untrusted: Bool = false) {
        self.reference = reference
        self.untrusted = untrusted
    }

    /// The rules apply: a reference, or `--untrusted`.
    package var grading: Bool { reference != nil || untrusted }
}
