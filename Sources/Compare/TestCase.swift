import Processes
import Support

/// What one program run produced, in the terms expectations are written in.
package struct Observation: Sendable, Equatable {
    package var stdout: TextLines
    /// Standard error (qemu's own crash line removed).
    package var stderr: TextLines
    package var status: Termination
    /// Files the program created or changed in its folder, by relative path; `nil` when they
    /// were not collected (the case lists none and nothing is recorded).
    package var files: [String: TextLines]?

    package init(stdout: TextLines, stderr: TextLines, status: Termination, files: [String: TextLines]? = nil) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
        self.files = files
    }
}

/// Recorded results; a `nil` field is not recorded: absent output means empty once anything is
/// recorded, an absent status is not checked.
package struct Expected: Sendable, Equatable {
    package var stdout: TextLines?
    package var stderr: TextLines?
    package var status: ExpectedStatus?
    /// Files the program must leave in its folder, by relative path.
    package var files: [String: TextLines] = [:]

    package init(stdout: TextLines? = nil, stderr: TextLines? = nil, status: ExpectedStatus? = nil, files: [String: TextLines] = [:]) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
        self.files = files
    }

    package init(stdout: TextLines? = nil, stderr: TextLines? = nil, status: Termination, files: [String: TextLines] = [:]) {
        self.init(stdout: stdout, stderr: stderr, status: ExpectedStatus(status), files: files)
    }

    var isEmpty: Bool { stdout == nil && stderr == nil && status == nil && files.isEmpty }

    /// `stdout: any`: the output is not checked.
    package var ignoresStdout: Bool { stdout == .anything }
}

/// A file given to a case: its path relative to the case folder and its content.
package struct CaseFile: Sendable, Equatable {
    package var name: String
    package var content: TextLines
}

/// One case of a program: its inputs and what it is expected to do, by default and per runner.
package struct TestCase: Sendable, Equatable {
    /// The case name, unique within the program.
    package var name: String
    package var arguments: [String] = []
    /// Extra environment, `NAME=VALUE` in order.
    package var environment: [String] = []
    /// Standard input (empty: `/dev/null`).
    package var stdin = TextLines(lines: [])
    /// Files written into the case folder before the program runs (`input NAME:`).
    package var inputs: [CaseFile] = []
    /// What every runner is expected to do.
    package var expected = Expected()
    /// What a particular runner does differently (only the fields that differ).
    var overrides: [String: Expected] = [:]
    /// `points: N`: what passing it is worth (`nil`: the default, 1).
    package var points: Double?
    /// `visibility:`: who sees the case's details, in Gradescope's words.
    package var visibility = Visibility.visible
    /// `timeout: SECONDS`: its own time limit, over the program's and the command line's.
    package var timeout: Double?
    /// `limit: NAME VALUE` lines: its own resource limits, in file order.
    package var limits: [CaseLimit] = []
    /// Comment lines inside the case, by the field line they precede (`CaseComments`).
    var comments = CaseComments()
    /// Where the case and its fields are in the `.expect` file.
    package var lines = CaseLines()

    package init(name: String) { self.name = name }

    /// What passing it is worth.
    package var worth: Double { points ?? 1 }

    /// Results have been recorded for this case: any stream, file or status, by default or for
    /// a runner (a case with `stdout:` and no `status:` checks its output, not its status).
    var isRecorded: Bool {
        !expected.isEmpty || overrides.values.contains { !$0.isEmpty }
    }

    /// Whether `other` gives the program the same arguments, environment, stdin and files.
    package func hasSameInputs(as other: TestCase) -> Bool {
        arguments == other.arguments && environment == other.environment && stdin == other.stdin && inputs == other.inputs
    }

    /// The expectation in force for `runner`; a `nil` status is not checked.
    package func effective(for runner: String) -> (
        stdout: TextLines, stderr: TextLines, status: ExpectedStatus?, files: [String: TextLines]
    ) {
        let override = overrides[runner]
        return (
            override?.stdout ?? expected.stdout ?? TextLines(lines: []),
            override?.stderr ?? expected.stderr ?? TextLines(lines: []),
            override?.status ?? expected.status,
            expected.files.merging(override?.files ?? [:]) { $1 }
        )
    }

    /// Whether running it means collecting the files the program writes.
    package var listsFiles: Bool { !expected.files.isEmpty || overrides.values.contains { !$0.files.isEmpty } }
}

/// Who sees a case's details once it is graded: Gradescope's test visibility. A hidden case
/// shows students its score only.
package enum Visibility: String, Sendable, Equatable, CaseIterable {
    case visible, hidden
    case afterDueDate = "after_due_date"
    case afterPublished = "after_published"
}

/// One `limit: NAME VALUE` line of a case (`memory 256M`), as written; checked when it is read.
package struct CaseLimit: Sendable, Equatable {
    var name: String
    var value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension TestCase {
    /// Its `limit:` lines as limits over `limits` (and `outputLimit` for `limit: output`).
    package func applyingLimits(to limits: ResourceLimits, outputLimit: Int) -> (resources: ResourceLimits, outputLimit: Int) {
        var resources = ResourceLimits()
        var output: Int?
        for limit in self.limits { _ = resources.apply(limit: [limit.name, limit.value], outputLimit: &output) }
        return (resources.filled(from: limits), output ?? outputLimit)
    }
}
