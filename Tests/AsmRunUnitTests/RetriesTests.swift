import AsmRunTestSupport
import Testing

@testable import Compare
@testable import Run
@testable import Source
@testable import Suite
@testable import Support

/// `--retries` with fake stages: a case that fails once and then passes is FLAKY, never a pass;
/// one that fails every time keeps its first failure and lists the retries; a build failure is
/// not retried. Deterministic: the fakes answer by the number of the run.
struct RetriesTests {
    private static let runners: [ObjectFormat: [Runner]] = [
        .elf64: [Runner(name: "native", kind: .native), Runner(name: "qemu", kind: .custom(["qemu"]))]
    ]

    private static func run(_ programs: [TestProgram], _ stages: FakeStages, retries: Int, failFast: Bool = false) -> SuiteOutcome {
        var configuration = SuiteConfiguration(jobs: 2)
        configuration.retries = retries
        configuration.failFast = failFast
        return SuiteRunner(
            programs: programs, runners: runners, configuration: configuration, stages: stages, emit: { _ in }, note: { _ in }
        )
        .run()
    }

    private static func programs(in folder: String) throws -> [TestProgram] {
        [try UnitFixture.program("a", cases: ["once", "always", "fine"], in: folder)]
    }

    @Test func aCaseThatFailsOnceThenPassesIsFlakyWithItsFirstFailure() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.programs(in: folder)
        let once = programs[0].id(of: "once")
        let stages = FakeStages(sequences: [once: [.fail, .pass]])
        let outcome = Self.run(programs, stages, retries: 2)
        let results = try #require(outcome.reports.first { $0.id == once }).results
        #expect(results.map(\.status) == [.flaky, .flaky], "a pass on a retry is never a plain pass")
        #expect(results.allSatisfy { $0.attempts == 2 && $0.failedAttempts.map(\.status) == [.fail] })
        #expect(results[0].message == "passed only on attempt 2; attempt 1: fake fail on run 1")
        #expect(stages.runs(of: once, runner: "native") == 2 && stages.runs(of: once, runner: "qemu") == 2)
        #expect(!results[0].isSuccess)
    }

    @Test func aCaseThatFailsEveryTimeKeepsItsFirstFailureAndItsRetries() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.programs(in: folder)
        let always = programs[0].id(of: "always")
        let stages = FakeStages(sequences: [always: [.timeout, .fail]])
        let outcome = Self.run(programs, stages, retries: 3)
        let result = try #require(outcome.reports.first { $0.id == always }?.results.first)
        #expect(result.status == .timeout && result.message == "fake timeout on run 1")
        #expect(result.failedAttempts.map(\.message) == ["fake fail on run 2", "fake fail on run 3", "fake fail on run 4"])
        #expect(result.attempts == 4 && stages.runs(of: always, runner: "native") == 4)
        let fine = programs[0].id(of: "fine")
        #expect(stages.runs(of: fine, runner: "native") == 1, "a passing case runs once")
    }

    @Test func withoutRetriesAFailureIsNotRunAgain() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.programs(in: folder)
        let once = programs[0].id(of: "once")
        let stages = FakeStages(sequences: [once: [.fail, .pass]])
        let outcome = Self.run(programs, stages, retries: 0)
        #expect(outcome.reports.first { $0.id == once }?.results.map(\.status) == [.fail, .fail])
        #expect(stages.runs == 6)
    }

    @Test func errorsAndBuildFailuresAreNotRetried() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.programs(in: folder) + [try UnitFixture.program("b", cases: ["one"], in: folder)]
        let once = programs[0].id(of: "once")
        let stages = FakeStages(sequences: [once: [.error, .pass]], failingBuilds: [programs[1].path])
        let outcome = Self.run(programs, stages, retries: 5)
        #expect(outcome.reports.first { $0.id == once }?.results.map(\.status) == [.error, .error])
        #expect(stages.runs(of: once, runner: "native") == 1)
        #expect(outcome.reports.last?.results.map(\.status) == [.error, .error] && stages.builds == 2)
    }

    @Test func aRetryThatErrsEndsTheRetriesAsAFailure() {
        var runs = 0
        let result = Retries.run(retries: 5, stopped: { false }) {
            runs += 1
            return RunnerResult(runner: "native", status: runs == 1 ? .fail : .error, message: "run \(runs)")
        }
        #expect(result.status == .fail && result.failedAttempts.map(\.message) == ["run 2"] && runs == 2)
    }

    @Test func anInterruptStopsTheRetriesAndTheFirstFailureStands() {
        var runs = 0
        let first = Retries.run(retries: 5, stopped: { runs >= 2 }) {
            runs += 1
            return RunnerResult(runner: "native", status: .fail, message: "run \(runs)")
        }
        #expect(first.status == .fail && first.attempts == 2 && runs == 2)
        runs = 0
        let interrupted = Retries.run(retries: 5, stopped: { false }) {
            runs += 1
            return RunnerResult(runner: "native", status: runs == 1 ? .fail : .interrupted)
        }
        #expect(interrupted.status == .fail && interrupted.attempts == 1, "what an interrupted run did is not counted")
    }

    @Test func aFlakyCaseDoesNotStopAFailFastRun() throws {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let programs = try Self.programs(in: folder)
        let stages = FakeStages(sequences: [programs[0].id(of: "once"): [.fail, .pass]])
        let outcome = Self.run(programs, stages, retries: 1, failFast: true)
        #expect(outcome.complete && outcome.reports.count == 3)
    }
}
