import Sandbox
import Support

/// The one place where errors are printed and turned into exit statuses.
enum Diagnostics {
    /// The command that met the error.
    enum Command {
        /// `asmrun FILE.asm`: any failure of asmrun's own exits 125, as `env` and `timeout` do,
        /// so it cannot be mistaken for the program's status.
        case run
        /// `asmrun test`, `asmrun cache`: usage and configuration errors exit 2.
        case test
    }

    /// Prints `error` and returns the exit status for it.
    static func fail(_ error: any Error, in command: Command, console: Console) -> Int32 {
        show(error, console: console)
        return command == .run ? ExitCode.toolFailure : ExitCode.usage
    }

    /// Prints `error` without ending anything: a tool's own lines, then `asmrun: MESSAGE`, with
    /// control characters escaped (names and option values come from users).
    static func show(_ error: any Error, console: Console) {
        console.write(text(for: error) + "\n", to: .error)
    }

    static func text(for error: any Error) -> String {
        if let error = error as? any AsmRunError { return error.rendered }
        return "asmrun: internal error: \(DisplayText.escape("\(error)")); please report it with the command that caused it"
    }
}
