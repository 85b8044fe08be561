import FoundationEssentials
import Support

extension JSONReport {
    private struct TimedReport: Decodable {
        struct Result: Decodable {
            var program: String
            var durationSeconds: Double?
            var buildSeconds: Double?
        }

        var results: [Result]
    }

    /// `--balance REPORT`: the seconds each program took in the run that wrote the `--json`
    /// report at `path` (its build once, plus every case under every runner), by program path
    /// as the report names it. An error names the file and what is wrong with it.
    package static func timings(at path: String) throws -> [String: Double] {
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path)
        } catch {
            throw FileError(
                path: path, problem: error.problem, fix: "--balance takes a report written by `asmrun test --json`", category: .usage)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let report: TimedReport
        do {
            report = try decoder.decode(TimedReport.self, from: Data(bytes))
        } catch {
            throw FileError(
                path: path, problem: "is not a JSON report with results (\(error))",
                fix: "--balance takes a report written by `asmrun test --json`", category: .usage)
        }
        var builds: [String: Double] = [:]
        var runs: [String: Double] = [:]
        for result in report.results {
            let key = result.program
            for value in [result.durationSeconds, result.buildSeconds].compactMap({ $0 })
            where !(value.isFinite && value >= 0 && value < 1e9) {
                throw FileError(
                    path: path, problem: "gives \(result.program) a duration of \(value) s",
                    fix: "write the report again with `asmrun test --json`", category: .usage)
            }
            runs[key, default: 0] += result.durationSeconds ?? 0
            builds[key] = max(builds[key] ?? 0, result.buildSeconds ?? 0)
        }
        return runs.merging(builds) { $0 + $1 }
    }
}
