/// What the user asked to run programs with: `auto`, `native`, `qemu`, `binfmt` or a prefix command.
package enum RunnerChoice: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Native where the program runs natively, elsewhere the policy's choice (qemu unless
    /// `ASMRUN_RUNNER` says otherwise).
    case auto
    /// exec the program directly.
    case native
    /// qemu-user for the program's format.
    case qemu
    /// exec the program directly on a foreign host and let the kernel's binfmt_misc handler
    /// (Rosetta, box64, FEX, qemu-user-binfmt) run it.
    case binfmt
    /// A prefix command that gets the executable as its last argument (box64, FEX, a wrapper).
    case custom(String)

    package init(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "native": self = .native
        case "qemu": self = .qemu
        case "binfmt": self = .binfmt
        default: self = .custom(text)
        }
    }

    /// The name used in reports and expectations (`native`, `qemu`, `binfmt` or the command text).
    package var description: String {
        switch self {
        case .auto: "auto"
        case .native: "native"
        case .qemu: "qemu"
        case .binfmt: "binfmt"
        case .custom(let text): text
        }
    }
}
