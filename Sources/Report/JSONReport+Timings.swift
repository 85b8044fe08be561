import Support

extension JSONReport {
    /// `--balance REPORT`: the seconds each program took in the run that wrote the `--json`
    /// report at `path` (its build once, plus every case under every runner), by program path
    /// as the report names it. An error names the file and what is wrong with it.
    package static func timings(at path: String) throws -> [String: Double] {
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path)
        } catch {
            throw FileError(
                path: path, problem: error.problem, fix: "--balance takes a report written by `asmrun test --json`")
        }
        let results: [(program: String, duration: Double?, build: Double?)]
        do {
            results = try timedResults(try JSONValue(parsing: bytes))
        } catch {
            throw FileError(
                path: path, problem: "is not a JSON report with results (\(error))",
                fix: "--balance takes a report written by `asmrun test --json`")
        }
        var builds: [String: Double] = [:]
        var runs: [String: Double] = [:]
        for result in results {
            let key = result.program
            for value in [result.duration, result.build].compactMap({ $0 }) where !(value >= 0 && value < 1e9) {
                throw FileError(
                    path: path, problem: "gives \(result.program) a duration of \(value) s",
                    fix: "write the report again with `asmrun test --json`")
            }
            runs[key, default: 0] += result.duration ?? 0
            builds[key] = max(builds[key] ?? 0, result.build ?? 0)
        }
        return runs.merging(builds) { $0 + $1 }
    }

    /// Each result's program and seconds: `results` must be an array of objects with a string
    /// `program`; `duration_seconds` and `build_seconds` are numbers when present.
    private static func timedResults(_ document: JSONValue) throws -> [(program: String, duration: Double?, build: Double?)] {
        guard case .array(let results)? = document["results"] else { throw JSONValue.ParseError(description: "no `results` array") }
        return try results.enumerated().map { index, result in
            guard case .string(let program)? = result["program"] else {
                throw JSONValue.ParseError(description: "result \(index + 1) has no string `program`")
            }
            func seconds(_ key: String) throws -> Double? {
                switch result[key] {
                case nil, .null?: return nil
                case .number(let value)?: return value
                default: throw JSONValue.ParseError(description: "result \(index + 1)'s `\(key)` is not a number")
                }
            }
            return (program, try seconds("duration_seconds"), try seconds("build_seconds"))
        }
    }
}
