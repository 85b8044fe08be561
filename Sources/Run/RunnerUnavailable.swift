import Support

/// Why a runner cannot be used here.
package struct RunnerUnavailable: AsmRunError, Equatable {
    /// The runner as the user named it.
    package let runner: String
    package let reason: String
    package let fix: String?

    package init(runner: String, reason: String, fix: String?) {
        self.runner = runner
        self.reason = reason
        self.fix = fix
    }

    package var problem: String { "\(runner) runner unavailable: \(reason)" }
}
