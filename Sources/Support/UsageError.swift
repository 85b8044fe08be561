/// Bad command-line usage (or a setting that contradicts another): one line, with the fix.
package struct UsageError: AsmRunError, Equatable {
    package let problem: String
    package let fix: String?

    package init(_ problem: String, fix: String? = nil) {
        self.problem = problem
        self.fix = fix
    }
}
