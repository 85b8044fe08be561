import Source
import Support

extension TestProgram {
    /// Grading: the policy directives of its main source give way to `policy` (the reference's,
    /// or the defaults), remembered in `ignoredDirectives`.
    mutating func judge(by policy: ProgramSettings) {
        guard var built = program else { return }
        ignoredDirectives = built.settings.policyDirectives
        built.settings.adoptPolicy(of: policy)
        program = built
    }

    /// A program built from a file outside `bounds` (or given what the build may not be given
    /// from a source) is refused, an error of each of its cases.
    mutating func confine(within bounds: ProgramBounds) {
        guard let built = program, problem == nil, let refusal = bounds.refusal(of: built) else { return }
        self.refusal = refusal
        let folder = bounds.graded ? "its submission" : bounds.root
        problem =
            [.notObject, .script].contains(refusal.kind)
            ? "refused: its link flags name a file the build may not be given (named above)"
            : "refused: built from a file outside \(folder) (named above)"
        studentProblem = "not built: " + refusal.studentText
    }
}
