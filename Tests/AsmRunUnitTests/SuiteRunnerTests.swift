import AsmRunTestSupport
import Compare
import Run
import Source
import Suite
import Support
import Synchronization
import Testing

/// The scheduler with fake stages: order, failures, fail-fast, running again; no process.
struct SuiteRunnerTests {
    private static func suite(in folder: String) throws -> [TestProgram] {
        [
            try UnitFixture.program("a", cases: ["one", "two"], in: folder),
            try UnitFixture.program("b", cases: ["three"], in: folder),
        ]
    }

    private static func runner(_ programs: [TestProgram], _ stages: FakeStages, jobs: Int = 4, failFast: Bool = false)
        -> (SuiteRunner, Collected)
    {
        let collected = Collected()
        var configuration = SuiteConfiguration(jobs: jobs)
        configuration.failFast = failFast
        let runner = SuiteRunner(
            programs: programs, runners: UnitFixture.runners, configuration: configuration, stages: stages,
            emit: { collected.add($0.id) }, note: { _ in })
        return (runner, collected)
    }

    @Test func everyCaseRunsUnderEveryRunnerAndIsReportedInDiscoveryOrder() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.suite(in: folder)
        let stages = FakeStages(answers: [programs[0].id(of: "two"): .fail])
        let (runner, collected) = Self.runner(programs, stages)
        let outcome = runner.run()
        #expect(outcome.complete)
        #expect(collected.ids == ["one", "two", "three"].enumerated().map { programs[$0.offset < 2 ? 0 : 1].id(of: $0.element) })
        #expect(stages.builds == 2 && stages.runs == 6)
        #expect(outcome.reports.map { $0.results.map(\.status) } == [[.pass, .pass], [.fail, .fail], [.pass, .pass]])
    }

    @Test func aBuildFailureIsAnErrorForEachOfItsCases() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.suite(in: folder)
        let stages = FakeStages(failingBuilds: [programs[0].path])
        let outcome = Self.runner(programs, stages).0.run()
        #expect(outcome.reports.prefix(2).allSatisfy { $0.results.allSatisfy { $0.status == .error } })
        #expect(outcome.reports.last?.results.map(\.status) == [.pass, .pass])
        #expect(stages.runs == 2, "no case of the program that did not build ran")
    }

    @Test func failFastStopsStartingCases() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.suite(in: folder)
        let stages = FakeStages(answers: [programs[0].id(of: "one"): .fail])
        let outcome = Self.runner(programs, stages, jobs: 1, failFast: true).0.run()
        #expect(!outcome.complete)
        #expect(stages.runs < 6)
    }

    @Test func theSameRunnerRunsAgain() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.suite(in: folder)
        let stages = FakeStages()
        let (runner, collected) = Self.runner(programs, stages)
        runner.interrupt()
        let first = runner.run()
        #expect(!first.complete, "an interrupt before the run holds for it")
        let second = runner.run()
        #expect(second.complete && second.reports.count == 3)
        #expect(collected.ids.suffix(3) == ["one", "two", "three"].enumerated().map { programs[$0.offset < 2 ? 0 : 1].id(of: $0.element) })
        let third = runner.run()
        #expect(third.complete && third.reports.count == 3 && stages.runs == 12)
    }
}

/// Case ids in the order they were emitted.
final class Collected: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ id: String) { list.withLock { $0.append(id) } }
    var ids: [String] { list.withLock { $0 } }
}
