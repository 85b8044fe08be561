import Compare
import Support

/// `--update`: once every case of a program ran, writes what it did into its `.expect`. Cases
/// that errored, exceeded the output limit or are expected failures are left as they were.
struct ExpectationRecorder: Sendable {
    /// Records `results` (one list per case, runner order) and returns the path when the file
    /// changed; a file that cannot be written is reported through the thrown error.
    func record(_ program: TestProgram, _ results: [(testCase: TestCase, results: [RunnerResult])]) throws -> String? {
        guard program.problem == nil, let source = program.program else { return nil }
        var file = program.expectations
        for (testCase, results) in results where !results.contains(where: { $0.status == .error }) {
            let observations = results.compactMap { result -> (runner: String, observation: Observation)? in
                guard let observation = result.observation, source.settings.expectedFailure(for: result.runner) == nil,
                    !result.outputLimitExceeded
                else { return nil }
                return (result.runner, observation)
            }
            if !observations.isEmpty { file.record(caseNamed: testCase.name, observations: observations) }
        }
        // Unchanged content is never rewritten, whatever its layout (CRLF, spacing, comments).
        guard file != program.expectations || !Files.exists(program.expectationPath) else { return nil }
        try file.save(to: program.expectationPath)
        return program.expectationPath
    }
}
