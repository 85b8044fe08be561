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
    /// Processes still running in the child's own PID namespace when it ended, which its init
    /// killed (with `Confinement.caseNamespaces`).
    package var leftovers = 0
    /// The child's PID namespace got a /proc of its own (with `Confinement.caseNamespaces`).
    package var privateProc = false
    /// An interrupt (Ctrl-C, SIGTERM) ended the run while this child ran: whatever it did is
    /// not what it would have done.
    package var interrupted = false

    package init(
        termination: Termination, stdout: [UInt8] = [], stderr: [UInt8] = [],
        outputLimitExceeded: Bool = false, duration: Double = 0, leftovers: Int = 0
    ) {
        self.leftovers = leftovers
        self.termination = termination
        self.stdout = stdout
        self.stderr = stderr
        self.outputLimitExceeded = outputLimitExceeded
        self.duration = duration
    }
}
