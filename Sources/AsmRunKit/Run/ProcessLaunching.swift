import Foundation
import Synchronization

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
        case .notFound(let name): "\(name) not found on PATH; install it or give its full path"
        case .spawnFailed(let name, let code):
            "cannot start \(name): \(String(cString: strerror(code))); check that it exists and is executable"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// Looks executables up on a search path without spawning anything; each name is looked up
/// once per locator (a suite builds thousands of programs with the same nasm and ld).
public struct ExecutableLocator: Sendable {
    /// The directories searched, in order.
    public let searchPath: [String]
    private let found = Memo()

    private final class Memo: Sendable {
        let paths = Mutex<[String: String?]>([:])
    }

    /// Creates a locator from a `PATH`-style string.
    public init(path: String?) {
        searchPath = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The full path of `name`, or `nil`; a name with a slash is checked as it is.
    public func find(_ name: String) -> String? {
        if let known = found.paths.withLock({ $0[name] }) { return known }
        let path = search(name)
        found.paths.withLock { $0[name] = path }
        return path
    }

    private func search(_ name: String) -> String? {
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
