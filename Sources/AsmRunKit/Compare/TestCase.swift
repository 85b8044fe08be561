/// What one program run produced, in the terms expectations are written in.
public struct Observation: Sendable, Equatable {
    /// Standard output.
    public var stdout: TextLines
    /// Standard error (qemu's own crash line removed).
    public var stderr: TextLines
    /// How the program ended.
    public var status: Termination

    /// Creates an observation.
    public init(stdout: TextLines, stderr: TextLines, status: Termination) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }
}

/// Recorded results; a `nil` field is not recorded (empty output, `exit 0` once a status exists).
public struct Expected: Sendable, Equatable {
    /// Expected standard output.
    public var stdout: TextLines?
    /// Expected standard error.
    public var stderr: TextLines?
    /// Expected status.
    public var status: Termination?

    /// Creates an expectation.
    public init(stdout: TextLines? = nil, stderr: TextLines? = nil, status: Termination? = nil) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }

    var isEmpty: Bool { stdout == nil && stderr == nil && status == nil }
}

/// One case of a program: its inputs and what it is expected to do, by default and per runner.
public struct TestCase: Sendable, Equatable {
    /// The case name, unique within the program.
    public var name: String
    /// Program arguments.
    public var arguments: [String] = []
    /// Extra environment, `NAME=VALUE` in order.
    public var environment: [String] = []
    /// Standard input (empty: `/dev/null`).
    public var stdin = TextLines(lines: [])
    /// What every runner is expected to do.
    public var expected = Expected()
    /// What a particular runner does differently (only the fields that differ).
    public var overrides: [String: Expected] = [:]

    /// Creates a case.
    public init(name: String) { self.name = name }

    /// Results have been recorded for this case.
    public var isRecorded: Bool {
        expected.status != nil || overrides.values.contains { $0.status != nil }
    }

    /// The expectation in force for `runner`.
    public func effective(for runner: String) -> (stdout: TextLines, stderr: TextLines, status: Termination) {
        let override = overrides[runner]
        return (
            override?.stdout ?? expected.stdout ?? TextLines(lines: []),
            override?.stderr ?? expected.stderr ?? TextLines(lines: []),
            override?.status ?? expected.status ?? .exited(0)
        )
    }
}
