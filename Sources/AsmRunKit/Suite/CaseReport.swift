/// The verdict on one case under one runner.
public enum CaseStatus: String, Sendable, Codable, CaseIterable {
    /// Matched its expectations.
    case pass
    /// Did not match (a diff says how), or an expected failure passed.
    case fail
    /// Could not be run: build failure, missing tool, bad input file.
    case error
    /// Ran past its time limit.
    case timeout
    /// Not run on this runner, with a reason.
    case skip
    /// Failed as the program's `xfail` directive expects.
    case xfail
}

/// One case under one runner.
public struct RunnerResult: Sendable {
    /// The runner name (`native`, `qemu`, or the command).
    public var runner: String
    /// The verdict.
    public var status: CaseStatus
    /// One line: what went wrong, or the skip reason.
    public var message: String = ""
    /// Diffs per stream (`stdout`, `stderr`, `status`) in that order.
    public var diffs: [(stream: String, text: String)] = []
    /// Other multi-line detail (a build error's nasm lines).
    public var detail: String = ""
    /// What the program did, when it ran.
    public var observation: Observation?
    /// Seconds the program ran.
    public var duration: Double = 0
    /// A stream passed the output limit: the observation is only a prefix, never recorded.
    public var outputLimitExceeded = false
    /// The file and line a CI annotation should point at.
    public var location: (file: String, line: Int)?

    /// Creates a result.
    public init(runner: String, status: CaseStatus, message: String = "") {
        self.runner = runner
        self.status = status
        self.message = message
    }

    /// Counts as passed in the summary (pass, or an expected failure).
    public var isSuccess: Bool { status == .pass || status == .xfail }

    /// The full failure text: the message, each diff, the detail.
    public var failureText: String {
        var parts = [message]
        for diff in diffs { parts.append("\(diff.stream):\n\(diff.text)") }
        if !detail.isEmpty { parts.append(detail) }
        return parts.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}

/// One case of one program under every runner, plus how the runners disagree.
public struct CaseReport: Sendable {
    /// The program path.
    public var program: String
    /// The case name.
    public var caseName: String
    /// One result per runner, in runner order.
    public var results: [RunnerResult]
    /// When runners disagree and one of them fails: both sides, as diffs.
    public var divergence: String?
    /// Seconds spent building the program (shared by its cases).
    public var buildDuration: Double = 0

    /// `asm/hello.asm:default`.
    public var id: String { "\(program):\(caseName)" }
}
