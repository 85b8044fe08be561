/// What a finished child did.
public struct ProcessResult: Sendable, Equatable {
    /// How it ended.
    public var termination: Termination
    /// Captured standard output (empty unless captured).
    public var stdout: [UInt8]
    /// Captured standard error (empty unless captured).
    public var stderr: [UInt8]
    /// A captured stream passed its limit and the child was ended.
    public var outputLimitExceeded: Bool
    /// Wall time from spawn to reaping, in seconds.
    public var duration: Double

    /// Creates a result.
    public init(
        termination: Termination, stdout: [UInt8] = [], stderr: [UInt8] = [],
        outputLimitExceeded: Bool = false, duration: Double = 0
    ) {
        self.termination = termination
        self.stdout = stdout
        self.stderr = stderr
        self.outputLimitExceeded = outputLimitExceeded
        self.duration = duration
    }
}
