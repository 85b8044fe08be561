import Foundation

/// What the user asked to run programs with: `auto`, `native`, `qemu`, or a prefix command.
public enum RunnerChoice: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Native on an x86 host, qemu elsewhere.
    case auto
    /// exec the program directly.
    case native
    /// qemu-user for the program's format.
    case qemu
    /// A prefix command that gets the executable as its last argument (box64, FEX, a wrapper).
    case custom(String)

    /// Parses one `--runner` value.
    public init(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "native": self = .native
        case "qemu": self = .qemu
        default: self = .custom(text)
        }
    }

    /// The name used in reports and expectations (`native`, `qemu`, or the command text).
    public var description: String {
        switch self {
        case .auto: "auto"
        case .native: "native"
        case .qemu: "qemu"
        case .custom(let text): text
        }
    }
}

/// Why a runner cannot be used here.
public struct RunnerUnavailable: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// The runner.
    public let runner: String
    /// Why, and what to use instead.
    public let reason: String

    /// `native runner unavailable: …`.
    public var description: String { "\(runner) runner unavailable: \(reason)" }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// A decided way to run an executable of one format, able to build its command line.
public struct Runner: Sendable, Equatable {
    /// How the executable is started.
    public enum Kind: Sendable, Equatable {
        /// Directly.
        case native
        /// Under qemu-user: its path, `-cpu` model and `-L` sysroot.
        case qemu(path: String, cpu: String?, sysroot: String?)
        /// Behind a prefix command.
        case custom([String])
    }

    /// `native`, `qemu` or the custom command text: the name in reports and expectations.
    public let name: String
    /// How the executable is started.
    public let kind: Kind

    /// Creates a runner.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Decides the runner for a choice, a program format and the host.
    public static func resolve(
        _ choice: RunnerChoice, format: ObjectFormat, toolchain: Toolchain, cpu: String? = nil
    ) throws -> Runner {
        switch choice {
        case .auto:
            let concrete: RunnerChoice = toolchain.host.runsNatively(format) ? .native : .qemu
            return try resolve(concrete, format: format, toolchain: toolchain, cpu: cpu)
        case .native:
            guard toolchain.host.runsNatively(format) else {
                throw RunnerUnavailable(
                    runner: "native",
                    reason: "\(format.rawValue) programs do not run natively on an \(toolchain.host.architecture) host; use `--runner qemu`"
                )
            }
            return Runner(name: "native", kind: .native)
        case .qemu:
            let path = try toolchain.qemu(for: format)
            let sysroot = toolchain.qemuSysroot(for: format).flatMap {
                FileManager.default.fileExists(atPath: $0) ? $0 : nil
            }
            return Runner(name: "qemu", kind: .qemu(path: path, cpu: cpu, sysroot: sysroot))
        case .custom(let text):
            let words = try ShellWords.split(text)
            guard !words.isEmpty else {
                throw RunnerUnavailable(runner: "''", reason: "the runner command is empty")
            }
            guard toolchain.locator.find(words[0]) != nil else {
                throw RunnerUnavailable(runner: text, reason: "\(words[0]) not found on PATH")
            }
            return Runner(name: text, kind: .custom(words))
        }
    }

    /// The same runner with a program's qemu `-cpu` model applied (other runners are unchanged).
    public func withCPU(_ model: String?) -> Runner {
        guard let model, case .qemu(let path, _, let sysroot) = kind else { return self }
        return Runner(name: name, kind: .qemu(path: path, cpu: model, sysroot: sysroot))
    }

    /// The command that runs `executable` with `arguments`, showing it `argv0` where possible.
    public func command(executable: String, argv0: String, arguments: [String]) -> Command {
        switch kind {
        case .native:
            return Command(executable, arguments, argv0: argv0)
        case .qemu(let path, let cpu, let sysroot):
            var prefix: [String] = []
            if let cpu { prefix += ["-cpu", cpu] }
            if let sysroot { prefix += ["-L", sysroot] }
            return Command(path, prefix + ["-0", argv0, executable] + arguments)
        case .custom(let words):
            return Command(words[0], Array(words.dropFirst()) + [executable] + arguments)
        }
    }

    /// qemu prints its own line when the guest dies by a signal; it is not the program's output.
    public var noiseFilter: LineFilter? {
        if case .qemu = kind { return LineFilter(droppingLinesStartingWith: "qemu: uncaught target signal") }
        return nil
    }
}
