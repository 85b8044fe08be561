import Foundation

/// Everything with side effects that a command needs: environment, processes and the terminal.
public struct Context: Sendable {
    /// asmrun's environment (`PATH`, `ASMRUN_HOST_ARCH`, `NO_COLOR`, `GITHUB_ACTIONS`, ...).
    public var environment: [String: String]
    /// The process seam.
    public var launcher: any ProcessLaunching
    /// Where output goes.
    public var console: Console
    /// asmrun is the whole process (the command-line tool), so every child is its own: at the end
    /// of a run it may reap any orphan left to it, not only the ones it can recognise.
    public var ownsProcess = false

    /// Creates a context.
    public init(environment: [String: String], launcher: any ProcessLaunching, console: Console) {
        self.environment = environment
        self.launcher = launcher
        self.console = console
    }

    /// The real process, terminal and environment.
    public static func live() -> Context {
        let environment = ProcessInfo.processInfo.environment
        var context = Context(
            environment: environment, launcher: PosixLauncher(path: environment["PATH"]),
            console: Console(environment: environment))
        context.ownsProcess = true
        return context
    }

    /// The host, honouring `ASMRUN_HOST_ARCH`.
    public var host: Host { Host(environment: environment) }

    /// Tool lookup on this context's `PATH`.
    public var toolchain: Toolchain {
        Toolchain(host: host, locator: ExecutableLocator(path: environment["PATH"]))
    }
}
