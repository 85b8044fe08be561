import Glibc
import Support

/// Everything with side effects that a command needs: environment, processes and the terminal.
/// Made once per command; tests make their own with a buffering console or a scripted launcher.
package struct Context: Sendable {
    /// asmrun's environment (`PATH`, `ASMRUN_HOST_ARCH`, `NO_COLOR`, `GITHUB_ACTIONS`, ...).
    package var environment: [String: String]
    package var launcher: any ProcessLaunching
    package var console: Console {
        didSet { diagnostics = DiagnosticsEngine(console: console) }
    }
    /// Where errors, warnings and notes go (to `console`'s standard error, escaped and counted).
    package private(set) var diagnostics: DiagnosticsEngine
    /// asmrun is the whole process (the command-line tool), so every child is its own: at the end
    /// of a run it may reap any orphan left to it, not only the ones it can recognise.
    package var ownsProcess = false
    /// What a second interrupt (Ctrl-C, SIGTERM) does while a run is still stopping: where
    /// asmrun is the whole process, the front end's one way out (`ExitStatus.abandon`: the
    /// terminal a watch saved put back, exit 130 at once); `nil` elsewhere, where an interrupt
    /// only ends the run.
    package var abandon: (@Sendable () -> Void)?

    package init(environment: [String: String], launcher: any ProcessLaunching, console: Console) {
        self.environment = environment
        self.launcher = launcher
        self.console = console
        diagnostics = DiagnosticsEngine(console: console)
    }
}
