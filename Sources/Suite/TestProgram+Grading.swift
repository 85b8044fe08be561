import Source
import Support

extension TestProgram {
    /// Grading: the policy directives of its main source give way to `policy` (the reference's,
    /// or the defaults), remembered in `ignoredDirectives`; a program built from a file outside
    /// `bounds` is refused, an error of each of its cases.
    mutating func judge(by policy: ProgramSettings, within bounds: SubmissionBounds) {
        guard var built = program else { return }
        ignoredDirectives = built.settings.policyDirectives
        built.settings.adoptPolicy(of: policy)
        program = built
        guard problem == nil, let refusal = bounds.refusal(of: built) else { return }
        self.refusal = refusal
        problem = "refused: built from a file outside its submission (named above)"
        studentProblem = "not built: " + refusal.studentText
    }
}
