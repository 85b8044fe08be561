import Build
import Foundation
import Sandbox
import Source
import Support

/// What the user asked to run programs with: `auto`, `native`, `qemu`, or a prefix command.
package enum RunnerChoice: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Native on an x86 host, qemu elsewhere.
    case auto
    /// exec the program directly.
    case native
    /// qemu-user for the program's format.
    case qemu
    /// A prefix command that gets the executable as its last argument (box64, FEX, a wrapper).
    case custom(String)

    package init(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "native": self = .native
        case "qemu": self = .qemu
        default: self = .custom(text)
        }
    }

    /// The name used in reports and expectations (`native`, `qemu`, or the command text).
    package var description: String {
        switch self {
        case .auto: "auto"
        case .native: "native"
        case .qemu: "qemu"
        case .custom(let text): text
        }
    }
}

/// Why a runner cannot be used here.
package struct RunnerUnavailable: AsmRunError, Equatable {
    /// The runner as the user named it.
    package let runner: String
    package let reason: String
    package let fix: String?

    package var category: ErrorCategory { .environment }
    package var problem: String { "\(runner) runner unavailable: \(reason)" }
}

/// A decided way to run an executable of one format, able to build its command line.
package struct Runner: Sendable, Equatable {
    /// How the executable is started.
    package enum Kind: Sendable, Equatable {
        case native
        /// Under qemu-user: its path, `-cpu` model and `-L` sysroot.
        case qemu(path: String, cpu: String?, sysroot: String?)
        case custom([String])
    }

    /// `native`, `qemu` or the custom command text: the name in reports and expectations.
    package let name: String
    /// How the executable is started.
    package let kind: Kind

    package init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Decides the runner for a choice, a program format and the host.
    package static func resolve(
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
                    reason: "\(format.rawValue) programs do not run natively on an \(toolchain.host.architecture) host",
                    fix: "use `--runner qemu`")
            }
            return Runner(name: "native", kind: .native)
        case .qemu:
            let path = try toolchain.qemu(for: format)
            let sysroot = toolchain.qemuSysroot(for: format).flatMap {
                Files.exists($0) ? $0 : nil
            }
            return Runner(name: "qemu", kind: .qemu(path: path, cpu: cpu, sysroot: sysroot))
        case .custom(let text):
            let words: [String]
            do {
                words = try ShellWords.split(text)
            } catch {
                throw RunnerUnavailable(runner: text, reason: "\(error)", fix: "close the quote in --runner")
            }
            guard !words.isEmpty else {
                throw RunnerUnavailable(
                    runner: "''", reason: "the runner command is empty", fix: "name native, qemu or a command such as `box64`")
            }
            guard toolchain.locator.find(words[0]) != nil else {
                throw RunnerUnavailable(
                    runner: text, reason: "\(words[0]) not found on PATH",
                    fix: "install it, give its full path, or use native or qemu")
            }
            return Runner(name: text, kind: .custom(words))
        }
    }

    /// The same runner with a program's qemu `-cpu` model applied (other runners are unchanged).
    package func withCPU(_ model: String?) -> Runner {
        guard let model, case .qemu(let path, _, let sysroot) = kind else { return self }
        return Runner(name: name, kind: .qemu(path: path, cpu: model, sysroot: sysroot))
    }

    /// The command that runs `executable` with `arguments`, showing it `argv0` where possible.
    package func command(executable: String, argv0: String, arguments: [String]) -> Command {
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
    package var noiseFilter: LineFilter? {
        if case .qemu = kind { return LineFilter(droppingLinesStartingWith: "qemu: uncaught target signal") }
        return nil
    }
}
