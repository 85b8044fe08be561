import Foundation
import Processes
import Testing

/// A launcher for unit tests: answers only the commands it was told to expect, and records an
/// issue for any other (so an unexpected spawn fails the test loudly).
package final class ScriptedLauncher: ProcessLaunching, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [(match: (Command) -> Bool, result: ProcessResult)]
    package private(set) var calls: [Command] = []
    package let children = ChildRegistry()

    package init(_ script: [(match: (Command) -> Bool, result: ProcessResult)]) { self.script = script }

    package func run(_ command: Command, options: LaunchOptions) throws -> ProcessResult {
        lock.lock()
        defer { lock.unlock() }
        calls.append(command)
        guard let index = script.firstIndex(where: { $0.match(command) }) else {
            Issue.record("unexpected process spawned: \(command)")
            throw LaunchError.notFound(command.executable)
        }
        return script.remove(at: index).result
    }
}
