package struct ProcessResult: Sendable, Equatable {
    package var termination: Termination
    /// Captured standard output (empty unless captured).
    package var stdout: [UInt8]
    /// Captured standard error (empty unless captured).
    package var stderr: [UInt8]
    /// A captured stream passed its limit and the child was ended.
    package var outputLimitExceeded: Bool
    /// Wall time from spawn to reaping, in seconds.
    package var duration: Double

    package init(
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
