import Compare
import Processes
import Support
import Testing

/// The judge alone: an observation against a case, no process.
struct JudgeTests {
    private static func observation(_ stdout: String, status: Termination = .exited(0)) -> Observation {
        Observation(stdout: TextLines(Array(stdout.utf8)), stderr: TextLines([]), status: status)
    }

    private static func testCase(stdout: String, status: Termination = .exited(0)) -> TestCase {
        var testCase = TestCase(name: "default")
        testCase.expected = Expected(stdout: TextLines(Array(stdout.utf8)), status: status)
        return testCase
    }

    @Test func matchingOutputAndStatusPass() {
        let result = Judge(recording: false).verdict(
            Self.observation("hi\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10)
        #expect(result.status == .pass && result.diffs.isEmpty)
    }

    @Test func aDifferentLineFailsWithADiff() {
        let result = Judge(recording: false).verdict(
            Self.observation("ho\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10)
        #expect(result.status == .fail)
        #expect(result.diffs.map(\.stream) == ["stdout"])
        #expect(result.diffs.first?.text.contains("-hi") == true && result.diffs.first?.text.contains("+ho") == true)
    }

    @Test func aWrongStatusFails() {
        let result = Judge(recording: false).verdict(
            Self.observation("hi\n", status: .exited(3)), against: Self.testCase(stdout: "hi\n"), runner: "qemu", timeout: 10)
        #expect(result.status == .fail && result.runner == "qemu")
    }

    @Test func anExpectedFailureIsXfailAndAPassingOneFails() {
        let judge = Judge(recording: false)
        let failing = judge.verdict(
            Self.observation("ho\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10,
            expectedFailure: "known bug")
        #expect(failing.status == .xfail && failing.message == "expected failure: known bug")
        let passing = judge.verdict(
            Self.observation("hi\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10,
            expectedFailure: "known bug")
        #expect(passing.status == .fail)
    }

    @Test func outputPastTheLimitFailsWhateverItHolds() {
        let result = Judge(recording: false).verdict(
            Self.observation("hi\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10, outputLimitExceeded: 64)
        #expect(result.status == .fail && result.outputLimitExceeded)
        #expect(result.message.hasPrefix("output limit exceeded: more than 64 bytes"))
    }

    @Test func anInterruptedCaseIsNeitherPassNorFail() {
        let result = Judge(recording: false).verdict(
            Self.observation("hi\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10, interrupted: true)
        #expect(result.status == .interrupted)
    }

    @Test func recordingNeverRecordsAnExpectedFailure() {
        let result = Judge(recording: true).verdict(
            Self.observation("ho\n"), against: Self.testCase(stdout: "hi\n"), runner: "native", timeout: 10,
            expectedFailure: "known bug")
        #expect(!result.recordsChange)
        #expect(result.message == "not recorded: the program is expected to fail here (known bug)")
    }
}
