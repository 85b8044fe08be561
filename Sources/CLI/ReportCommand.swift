import Processes
import Report
import Suite
import Support

/// `asmrun report merge SHARD.json… [--json F] [--junit F] [--summary F] [--allow-flaky]`: one
/// report from the JSON reports of a sharded run's jobs, and the exit status the unsharded run
/// would have had (its `--allow-flaky` given again).
struct ReportCommand {
    var inputs: [String] = []
    var jsonPath: String?
    var junitPath: String?
    var summaryPath: String?
    /// A case that passed only on a retry does not fail the merge, as in the shards' own run.
    var allowFlaky = false
    let context: Context

    static func main(_ arguments: [String], context: Context) -> Int32 {
        AsmRun.subcommand(arguments, help: Usage.report, failing: .test, context: context) {
            var command = ReportCommand(context: context)
            guard arguments.first == "merge" else {
                throw UsageError(
                    "`asmrun report` takes `merge`, not `\((arguments.first ?? "").displayEscaped)`", fix: "see `asmrun report --help`")
            }
            var scanner = ArgumentScanner(Array(arguments.dropFirst()))
            while let argument = scanner.next() {
                switch argument {
                case "--json": command.jsonPath = try scanner.value(for: argument)
                case "--junit": command.junitPath = try scanner.value(for: argument)
                case "--summary": command.summaryPath = try scanner.value(for: argument)
                case "--allow-flaky": command.allowFlaky = true
                case let option where option.hasPrefix("-") && option.count > 1:
                    throw UsageError.unknownOption(option, help: "asmrun report --help")
                default: command.inputs.append(argument)
                }
            }
            guard !command.inputs.isEmpty else {
                throw UsageError("report merge needs the JSON reports to merge", fix: "asmrun report merge shard-1.json shard-2.json")
            }
            return try command.execute()
        }
    }

    /// Prints the failures and the summary, writes the reports asked for, and returns 0 when
    /// every shard is there, complete, and every case passed (3 when some were flaky, as
    /// `ExitStatus.test` says).
    func execute() throws -> Int32 {
        var files: [(path: String, bytes: [UInt8])] = []
        for path in inputs {
            do { files.append((path, try Files.read(path))) } catch {
                throw FileError(path: path, problem: error.problem, fix: "give the --json reports of the shards")
            }
        }
        let merged = try JSONReport.merge(files)
        let reporter = ConsoleReporter(
            console: context.console, diagnostics: context.diagnostics, verbose: false, environment: context.environment,
            total: merged.reports.count)
        for report in merged.printed { reporter.caseFinished(report) }
        let outcome = SuiteOutcome(reports: merged.reports, complete: merged.complete)
        var unwritten = 0
        let summary = { StepSummary.render(merged.reports, tally: reporter.tally, complete: merged.complete, seconds: merged.seconds) }
        let reports: [(String?, () throws -> String)] = [
            (jsonPath, { merged.json }),
            (junitPath, { JUnitReport.render(outcome, seconds: merged.seconds) }),
            (summaryPath, summary),
        ]
        for case (let path?, let render) in reports {
            do {
                AtomicFile.removeAbandoned(besides: path)
                try AtomicFile.write(Array(try render().utf8), to: path)
            } catch {
                context.diagnostics.error(error)
                unwritten += 1
            }
        }
        let reason = merged.remarks.isEmpty ? nil : merged.remarks.joined(separator: "; ")
        reporter.finish(complete: merged.complete, seconds: merged.seconds, reason: reason)
        if let path = context.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            do { try Files.append(Array(summary().utf8), to: path) } catch { context.diagnostics.error(error) }
        }
        return ExitStatus.test(
            failed: reporter.tally.failed, flaky: reporter.tally.flaky, allowFlaky: allowFlaky, complete: merged.complete, pathProblems: 0,
            unwrittenReports: unwritten, interrupted: false)
    }
}
