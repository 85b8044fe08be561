import Sandbox

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
    package var overrides: [String: Expected] = [:]
    /// `points: N`: what passing it is worth (`nil`: the default, 1).
    package var points: Double?
    /// Comment lines inside the case, by the field line they precede (`CaseComments`).
    package var comments = CaseComments()
    /// Where the case and its fields are in the `.expect` file.
    package var lines = CaseLines()

    package init(name: String) { self.name = name }

    /// What passing it is worth.
    package var worth: Double { points ?? 1 }

    /// Results have been recorded for this case: any stream, file or status, by default or for
    /// a runner (a case with `stdout:` and no `status:` checks its output, not its status).
    package var isRecorded: Bool {
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
