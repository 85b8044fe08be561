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

/// Recorded results; a `nil` field is not recorded (empty output, `exit 0` once a status exists).
package struct Expected: Sendable, Equatable {
    package var stdout: TextLines?
    package var stderr: TextLines?
    package var status: Termination?
    /// Files the program must leave in its folder, by relative path.
    package var files: [String: TextLines] = [:]

    package init(stdout: TextLines? = nil, stderr: TextLines? = nil, status: Termination? = nil, files: [String: TextLines] = [:]) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
        self.files = files
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

    package init(name: String) { self.name = name }

    /// Results have been recorded for this case.
    package var isRecorded: Bool {
        expected.status != nil || !expected.files.isEmpty || overrides.values.contains { $0.status != nil || !$0.files.isEmpty }
    }

    /// Whether `other` gives the program the same arguments, environment, stdin and files.
    package func hasSameInputs(as other: TestCase) -> Bool {
        arguments == other.arguments && environment == other.environment && stdin == other.stdin && inputs == other.inputs
    }

    /// The expectation in force for `runner`.
    package func effective(for runner: String) -> (
        stdout: TextLines, stderr: TextLines, status: Termination, files: [String: TextLines]
    ) {
        let override = overrides[runner]
        return (
            override?.stdout ?? expected.stdout ?? TextLines(lines: []),
            override?.stderr ?? expected.stderr ?? TextLines(lines: []),
            override?.status ?? expected.status ?? .exited(0),
            expected.files.merging(override?.files ?? [:]) { $1 }
        )
    }

    /// Whether running it means collecting the files the program writes.
    package var listsFiles: Bool { !expected.files.isEmpty || overrides.values.contains { !$0.files.isEmpty } }
}
