/// What decides a runner besides the toolchain: what `auto` means where x86 programs do not run
/// natively, and where the kernel's binfmt_misc registry is.
package struct RunnerPolicy: Sendable, Equatable {
    /// `auto` on a foreign host: qemu (the default: exact and reproducible), binfmt, or a command.
    var foreign: RunnerChoice
    /// The binfmt_misc folder; only tests point it elsewhere (`ASMRUN_BINFMT_MISC_DIR`).
    package var binfmtFolder: String

    package init(foreign: RunnerChoice = .qemu, binfmtFolder: String = BinfmtMisc.standardFolder) {
        self.foreign = foreign
        self.binfmtFolder = binfmtFolder
    }

    /// The policy of an environment: `ASMRUN_RUNNER` (qemu, binfmt or a command) and the
    /// test-only `ASMRUN_BINFMT_MISC_DIR`.
    package init(environment: [String: String]) throws(RunnerUnavailable) {
        let folder = environment["ASMRUN_BINFMT_MISC_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(binfmtFolder: folder ?? BinfmtMisc.standardFolder)
        guard let text = environment["ASMRUN_RUNNER"], !text.isEmpty else { return }
        let choice = RunnerChoice(text)
        guard choice != .auto && choice != .native else {
            throw RunnerUnavailable(
                runner: "ASMRUN_RUNNER=\(text)", reason: "it names the runner `auto` uses where x86 programs do not run natively",
                fix: "set it to qemu, binfmt or a command such as box64, or unset it")
        }
        foreign = choice
    }

    /// The registry as it is now.
    package var binfmt: BinfmtMisc { BinfmtMisc(reading: binfmtFolder) }
}
