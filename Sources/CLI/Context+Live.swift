import Glibc
import Processes
import Support

/// The composition of the command-line tool: the real environment, the process launcher and the
/// terminal. Only the front end makes it; every stage below takes the `Context` it is given.
extension Context {
    /// The real process, terminal and environment.
    package static func live() -> Context {
        let environment = Self.processEnvironment()
        var context = Context(
            environment: environment, launcher: PosixLauncher(path: environment["PATH"]),
            console: Console(environment: environment))
        context.ownsProcess = true
        context.abandon = { ExitStatus.abandon() }
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
