import AsmRunTestSupport
import Compare
import Run
import Source
import Suite
import Support
import Testing

/// `--retries` with fake stages: a case that fails once and then passes is FLAKY, never a pass;
/// one that fails every time keeps its first failure and lists the retries; a build failure is
/// not retried. Deterministic: the fakes answer by the number of the run.
struct RetriesTests {
    /// A run of program `a` (cases `once`, `always` and `fine`, and with `brokenBuild` a program
    /// `b` whose build fails) under both runners, each case answering its `sequences` entry.
    private struct Retried {
        var outcome: SuiteOutcome
        var stages: FakeStages
        var program: TestProgram

        func results(_ caseName: String) -> [RunnerResult]? {
            outcome.reports.first { $0.id == program.id(of: caseName) }?.results
        }

        func nativeRuns(_ caseName: String) -> Int { stages.runs(of: program.id(of: caseName), runner: "native") }
    }

    private static func run(_ sequences: [String: [CaseStatus]], retries: Int, failFast: Bool = false, brokenBuild: Bool = false)
        throws -> Retried
    {
        let folder = try UnitFixture.folder()
        defer { Files.removeTree(folder) }
        let program = try UnitFixture.program("a", cases: ["once", "always", "fine"], in: folder)
        let broken = brokenBuild ? [try UnitFixture.program("b", cases: ["one"], in: folder)] : []
        let stages = FakeStages(
            sequences: Dictionary(uniqueKeysWithValues: sequences.map { (program.id(of: $0.key), $0.value) }),
            failingBuilds: Set(broken.map(\.path)))
        var configuration = SuiteConfiguration(jobs: 2)
        configuration.retries = retries
        configuration.failFast = failFast
        let runner = SuiteRunner(
            programs: [program] + broken, runners: UnitFixture.runners, configuration: configuration, stages: stages, emit: { _ in },
            note: { _ in })
        return Retried(outcome: runner.run(), stages: stages, program: program)
    }

    @Test func aCaseThatFailsOnceThenPassesIsFlakyWithItsFirstFailure() throws {
        let run = try Self.run(["once": [.fail, .pass]], retries: 2)
        let results = try #require(run.results("once"))
        #expect(results.map(\.status) == [.flaky, .flaky], "a pass on a retry is never a plain pass")
        #expect(results.allSatisfy { $0.attempts == 2 && $0.failedAttempts.map(\.status) == [.fail] })
        #expect(results[0].message == "passed only on attempt 2; attempt 1: fake fail on run 1")
        #expect(run.nativeRuns("once") == 2 && run.stages.runs(of: run.program.id(of: "once"), runner: "qemu") == 2)
        #expect(!results[0].isSuccess)
    }

    @Test func aCaseThatFailsEveryTimeKeepsItsFirstFailureAndItsRetries() throws {
        let run = try Self.run(["always": [.timeout, .fail]], retries: 3)
        let result = try #require(run.results("always")?.first)
        #expect(result.status == .timeout && result.message == "fake timeout on run 1")
        #expect(result.failedAttempts.map(\.message) == ["fake fail on run 2", "fake fail on run 3", "fake fail on run 4"])
        #expect(result.attempts == 4 && run.nativeRuns("always") == 4)
        #expect(run.nativeRuns("fine") == 1, "a passing case runs once")
    }

    @Test func withoutRetriesAFailureIsNotRunAgain() throws {
        let run = try Self.run(["once": [.fail, .pass]], retries: 0)
        #expect(run.results("once")?.map(\.status) == [.fail, .fail])
        #expect(run.stages.runs == 6)
    }

    @Test func errorsAndBuildFailuresAreNotRetried() throws {
        let run = try Self.run(["once": [.error, .pass]], retries: 5, brokenBuild: true)
        #expect(run.results("once")?.map(\.status) == [.error, .error])
        #expect(run.nativeRuns("once") == 1)
        #expect(run.outcome.reports.last?.results.map(\.status) == [.error, .error] && run.stages.builds == 2)
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
        let run = try Self.run(["once": [.fail, .pass]], retries: 1, failFast: true)
        #expect(run.outcome.complete && run.outcome.reports.count == 3)
    }
}
