import Foundation

/// Everything with side effects that a command needs: environment, processes and the terminal.
public struct Context: Sendable {
    /// asmrun's environment (`PATH`, `ASMRUN_HOST_ARCH`, `NO_COLOR`, `GITHUB_ACTIONS`, ...).
    public var environment: [String: String]
    /// The process seam.
    public var launcher: any ProcessLaunching
    /// Where output goes.
    public var console: Console

    /// Creates a context.
    public init(environment: [String: String], launcher: any ProcessLaunching, console: Console) {
        self.environment = environment
        self.launcher = launcher
        self.console = console
    }

    /// The real process, terminal and environment.
    public static func live() -> Context {
        let environment = ProcessInfo.processInfo.environment
        return Context(
            environment: environment, launcher: PosixLauncher(path: environment["PATH"]),
            console: Console(environment: environment))
    }

    /// The host, honouring `ASMRUN_HOST_ARCH`.
    public var host: Host { Host(environment: environment) }

    /// Tool lookup on this context's `PATH`.
    public var toolchain: Toolchain {
        Toolchain(host: host, locator: ExecutableLocator(path: environment["PATH"]))
    }
}
