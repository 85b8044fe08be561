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
    /// of a run it may reap any orphan left to it, not only the ones it can recognise, and a
    /// second Ctrl-C may exit at once.
    package var ownsProcess = false

    package init(environment: [String: String], launcher: any ProcessLaunching, console: Console) {
        self.environment = environment
        self.launcher = launcher
        self.console = console
        diagnostics = DiagnosticsEngine(console: console)
    }

    /// The real process, terminal and environment.
    package static func live() -> Context {
        let environment = Self.processEnvironment()
        var context = Context(
            environment: environment, launcher: PosixLauncher(path: environment["PATH"]),
            console: Console(environment: environment))
        context.ownsProcess = true
        return context
    }

    /// `environ` as a dictionary (the first assignment of a name wins, as `getenv` has it).
    /// Foundation's `ProcessInfo` would do the same after setting itself up, which was a tenth
    /// of asmrun's start-up.
    static func processEnvironment() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        // Sized once: growing it eight times was half the dictionary's cost at start-up.
        var environment = [String: String](minimumCapacity: count)
        var entry = environ
        while let pointer = entry.pointee {
            let assignment = String(cString: pointer)
            if let equals = assignment.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(assignment[..<equals])
                if environment[name] == nil { environment[name] = String(assignment[assignment.index(after: equals)...]) }
            }
            entry += 1
        }
        return environment
    }
}
