import Compare
import Support

/// `--update`: once every case of a program ran, writes what it did into its `.expect`. Cases
/// that errored, exceeded the output limit or are expected failures are left as they were.
struct ExpectationRecorder: Sendable {
    /// Records `results` (one list per case, runner order) and returns the path when the file
    /// changed, with what to say out loud about it (crashes recorded as expected, runners that
    /// disagree); a file that cannot be written is reported through the thrown error.
    func record(
        _ program: TestProgram, _ results: [(testCase: TestCase, results: [RunnerResult])]
    ) throws -> (path: String?, remarks: [String]) {
        guard program.problem == nil, let source = program.program else { return (nil, []) }
        var file = program.expectations
        var remarks: [String] = []
        for (testCase, results) in results where !results.contains(where: { $0.status == .error }) {
            let observations = results.compactMap { result -> (runner: String, observation: Observation)? in
                guard let observation = result.observation, source.settings.expectedFailure(for: result.runner) == nil,
                    !result.outputLimitExceeded
                else { return nil }
                return (result.runner, observation)
            }
            guard let baseline = observations.first?.runner else { continue }
            file.record(caseNamed: testCase.name, observations: observations)
            let old = program.expectations.cases.first { $0.name == testCase.name }
            let new = file.cases.first { $0.name == testCase.name }
            remarks += (new?.recordingRemarks(since: old, baseline: baseline) ?? []).map {
                "\(program.id(of: testCase.name)) [\($0.runner)]: \($0.text)"
            }
        }
        // Unchanged content is never rewritten, whatever its layout (CRLF, spacing, comments).
        guard file != program.expectations || !Files.exists(program.expectationPath) else { return (nil, []) }
        try file.save(to: program.expectationPath)
        return (program.expectationPath, remarks)
    }
}
