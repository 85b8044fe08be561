import Processes

extension Context {
    /// The host, honouring `ASMRUN_HOST_ARCH`.
    package var host: Host { Host(environment: environment) }

    /// Tool lookup on this context's `PATH` (and qemu's `QEMU_LD_PREFIX`); make it once per run,
    /// every lookup is remembered.
    package var toolchain: Toolchain {
        Toolchain(host: host, locator: ExecutableLocator(path: environment["PATH"]), qemuPrefix: environment["QEMU_LD_PREFIX"])
    }
}
