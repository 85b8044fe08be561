import Glibc
import Source

/// The machine asmrun runs on, as far as choosing linkers and runners is concerned.
package struct Host: Sendable, Equatable {
    /// `x86_64`, `aarch64`, `i686`, ...
    package let architecture: String
    /// True when the architecture came from `ASMRUN_HOST_ARCH`.
    package let simulated: Bool
    /// The machine's own architecture, whatever `ASMRUN_HOST_ARCH` says.
    package let machine: String

    package init(architecture: String, simulated: Bool = false, machine: String? = nil) {
        self.architecture = architecture
        self.simulated = simulated
        self.machine = machine ?? architecture
    }

    /// The real machine, or the one `ASMRUN_HOST_ARCH` names.
    package init(environment: [String: String]) {
        let machine = Self.normalize(Self.uname())
        if let forced = environment["ASMRUN_HOST_ARCH"], !forced.isEmpty {
            self.init(architecture: Self.normalize(forced), simulated: true, machine: machine)
        } else {
            self.init(architecture: machine)
        }
    }

    /// x86_64 code runs natively (elf64 and elf32).
    package var runsX86_64: Bool { architecture == "x86_64" }

    /// i386 code runs natively.
    var runsI386: Bool { runsX86_64 || architecture == "i686" }

    /// Whether programs of `format` run without an emulator.
    package func runsNatively(_ format: ObjectFormat) -> Bool {
        format == .elf64 ? runsX86_64 : runsI386
    }

    static func normalize(_ name: String) -> String {
        switch name.lowercased() {
        case "amd64", "x64", "x86-64": "x86_64"
        case "arm64", "armv8": "aarch64"
        case "i386", "i486", "i586", "x86": "i686"
        case let other: other
        }
    }

    private static func uname() -> String {
        var info = utsname()
        guard Glibc.uname(&info) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &info.machine) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
