import Foundation

/// The one seam through which asmrun starts processes; tests swap in a fake.
public protocol ProcessLaunching: Sendable {
    /// Runs `command` to completion under `options`, blocking the calling (non-pool) thread.
    func run(_ command: Command, options: LaunchOptions) throws -> ProcessResult
}

/// Why a process could not be started.
public enum LaunchError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// No executable of that name on `PATH`.
    case notFound(String)
    /// The kernel refused to start it.
    case spawnFailed(String, errno: Int32)

    /// One line naming the executable and the cause.
    public var description: String {
        switch self {
        case .notFound(let name): "\(name) not found on PATH"
        case .spawnFailed(let name, let code):
            "cannot start \(name): \(String(cString: strerror(code)))"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// Looks executables up on a search path without spawning anything.
public struct ExecutableLocator: Sendable {
    /// The directories searched, in order.
    public var searchPath: [String]

    /// Creates a locator from a `PATH`-style string.
    public init(path: String?) {
        searchPath = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The full path of `name`, or `nil`; a name with a slash is checked as it is.
    public func find(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in searchPath where !directory.isEmpty {
            let candidate = directory + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        return nil
    }

    /// The first of `names` found.
    public func find(anyOf names: [String]) -> String? {
        for name in names {
            if let path = find(name) { return path }
        }
        return nil
    }
}
