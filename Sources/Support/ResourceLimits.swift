/// Per-child resource limits; `nil` leaves a limit as asmrun has it. Core dumps are always off.
package struct ResourceLimits: Sendable, Equatable {
    /// RLIMIT_AS in bytes.
    package var addressSpace: Int?
    /// RLIMIT_FSIZE in bytes.
    package var fileSize: Int?
    /// RLIMIT_CPU in seconds.
    package var cpuSeconds: Int?
    /// RLIMIT_NPROC (ignored by the kernel for root).
    package var processes: Int?
    /// RLIMIT_NOFILE.
    package var openFiles: Int?
    /// RLIMIT_STACK in bytes: how far the main thread's stack may grow (and under qemu-user,
    /// which sizes the guest's stack from it, at least 8 MiB).
    package var stack: Int?

    package init(
        addressSpace: Int? = nil, fileSize: Int? = nil, cpuSeconds: Int? = nil,
        processes: Int? = nil, openFiles: Int? = nil, stack: Int? = nil
    ) {
        self.addressSpace = addressSpace
        self.fileSize = fileSize
        self.cpuSeconds = cpuSeconds
        self.processes = processes
        self.openFiles = openFiles
        self.stack = stack
    }
}

extension ResourceLimits {
    /// These limits, with every unset one taken from `defaults`.
    package func filled(from defaults: ResourceLimits) -> ResourceLimits {
        ResourceLimits(
            addressSpace: addressSpace ?? defaults.addressSpace, fileSize: fileSize ?? defaults.fileSize,
            cpuSeconds: cpuSeconds ?? defaults.cpuSeconds, processes: processes ?? defaults.processes,
            openFiles: openFiles ?? defaults.openFiles, stack: stack ?? defaults.stack)
    }
}

extension ResourceLimits {
    /// These limits, none above `ceilings` (a limit unset here takes the ceiling).
    package func lowered(to ceilings: ResourceLimits) -> ResourceLimits {
        func lower(_ own: Int?, _ ceiling: Int?) -> Int? { ceiling.map { min(own ?? $0, $0) } ?? own }
        return ResourceLimits(
            addressSpace: lower(addressSpace, ceilings.addressSpace), fileSize: lower(fileSize, ceilings.fileSize),
            cpuSeconds: lower(cpuSeconds, ceilings.cpuSeconds), processes: lower(processes, ceilings.processes),
            openFiles: lower(openFiles, ceilings.openFiles), stack: lower(stack, ceilings.stack))
    }
}
