import Foundation
import Processes
import Run
import Session
import Synchronization
import Testing

@testable import Support

/// A front end other than the command line (a watch mode, an editor) drives `TestSession` with a
/// plan it made itself, observes its events, and runs it again.
@Suite(.tags(.integration), .needsTools)
struct TestSessionTests {
    @Test func aSessionRunsAgainAndTellsItsEvents() throws {
        let directory = try Fixture.folder(Fixture.helloSuite)
        defer { Files.removeTree(directory) }
        var plan = TestPlan()
        plan.paths = [directory]
        plan.runners = [RunnerChoice(Fixture.runner)]
        plan.cache.directory = directory + "/cache"
        let console = Console(bufferingWithColor: false)
        let context = Context(
            environment: Fixture.environment, launcher: PosixLauncher(path: Fixture.environment["PATH"]), console: console)
        let session = TestSession(plan: plan, context: context)
        let events = Mutex<[String]>([])
        let observe: @Sendable (TestEvent) -> Void = { event in
            switch event {
            case .started(let total): events.withLock { $0.append("started \(total)") }
            case .caseFinished(let report):
                events.withLock { $0.append("\(report.caseName) \(report.results.map(\.status.rawValue).joined(separator: ","))") }
            case .casesRan, .remark: break
            }
        }
        let first = try #require(try session.run(observe: observe))
        #expect(first.complete && first.tally.passed == 1 && first.tally.failed == 0)
        try Fixture.write("[case default]\nstdout:\n| bye\nstatus: exit 0\n", to: directory + "/hello.expect")
        let second = try #require(try session.run(observe: observe))
        #expect(second.complete && second.tally.failed == 1)
        #expect(events.withLock { $0 } == ["started 1", "default pass", "started 1", "default fail"])
        #expect(console.capturedOutput.isEmpty, "the session prints nothing itself: \(console.capturedOutput)")
    }
}
