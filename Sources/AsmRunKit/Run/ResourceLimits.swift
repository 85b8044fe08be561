/// Per-child resource limits; `nil` leaves a limit as asmrun has it. Core dumps are always off.
public struct ResourceLimits: Sendable, Equatable {
    /// RLIMIT_AS in bytes.
    public var addressSpace: Int?
    /// RLIMIT_FSIZE in bytes.
    public var fileSize: Int?
    /// RLIMIT_CPU in seconds.
    public var cpuSeconds: Int?
    /// RLIMIT_NPROC (ignored by the kernel for root).
    public var processes: Int?
    /// RLIMIT_NOFILE.
    public var openFiles: Int?

    /// Creates limits; every limit defaults to unchanged.
    public init(
        addressSpace: Int? = nil, fileSize: Int? = nil, cpuSeconds: Int? = nil,
        processes: Int? = nil, openFiles: Int? = nil
    ) {
        self.addressSpace = addressSpace
        self.fileSize = fileSize
        self.cpuSeconds = cpuSeconds
        self.processes = processes
        self.openFiles = openFiles
    }
}
