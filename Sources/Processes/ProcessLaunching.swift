import Glibc
import Support

/// The one seam through which asmrun starts processes; tests swap in a fake.
package protocol ProcessLaunching: Sendable {
    /// The children this launcher supervises right now.
    var children: ChildRegistry { get }

    /// Runs `command` to completion under `options`, blocking the calling (non-pool) thread.
    func run(_ command: Command, options: LaunchOptions) throws -> ProcessResult
}

/// Why a process could not be started.
package enum LaunchError: AsmRunError, Equatable {
    /// No executable of that name on `PATH`.
    case notFound(String)
    /// A step before `exec` (named), or `exec` itself, failed with this errno.
    case spawnFailed(String, errno: Int32)
    /// The kernel refused the arguments or environment of this program (E2BIG): what was too large.
    case tooLarge(String, what: String)

    package var problem: String {
        switch self {
        case .notFound(let name): "\(name) not found on PATH"
        case .spawnFailed(let name, let code): "cannot start \(name) (\(errorText(code)))"
        case .tooLarge(let name, let what): "cannot start \(name): \(what)"
        }
    }

    package var fix: String? {
        switch self {
        case .notFound: "install it or give its full path"
        case .tooLarge: "pass large data on standard input or in a file instead"
        case .spawnFailed(_, let code) where code == E2BIG:
            "its arguments and environment are larger than the kernel accepts; shorten them"
        case .spawnFailed(_, let code) where code == ENOEXEC:
            "it is not an executable this machine can start; pick another runner"
        case .spawnFailed(_, let code) where code == EAGAIN || code == ENOMEM:
            "the machine is out of processes or memory; run fewer jobs (-j)"
        case .spawnFailed: "check that it exists and is executable"
        }
    }
}

/// An interrupt (Ctrl-C, SIGTERM) ended a child before it finished; nothing it produced counts.
package struct InterruptedError: AsmRunError, Equatable {
    /// What was running.
    package let what: String

    package init(_ what: String) { self.what = what }

    package var problem: String { "\(what) was interrupted (Ctrl-C or SIGTERM)" }
    package var fix: String? { nil }
}
