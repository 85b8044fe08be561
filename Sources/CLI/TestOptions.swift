import Build
import Processes
import Report
import Run
import Session
import Source
import Suite
import Support

/// The command line of `asmrun test`, parsed into the session's plan.
extension TestPlan {
    /// Parses the arguments after `test`.
    package init(parsing arguments: [String]) throws {
        self.init()
        var scanner = ArgumentScanner(arguments)
        while let argument = scanner.next() {
            switch argument {
            case "--update": update = true
            case "--review": review = true
            case "-j", "--jobs":
                let text = try scanner.value(for: argument)
                guard let value = Int(text), value > 0, value <= 1024 else {
                    throw UsageError("\(argument) takes a number of jobs from 1 to 1024, not `\(text)`")
                }
                jobs = value
            case "--runner", "--runners": runners = try Self.parseRunners(try scanner.value(for: argument))
            case "--filter": filter = try scanner.value(for: argument)
            case "--list": list = true
            case "--shard": shard = try Self.parseShard(try scanner.value(for: argument))
            case "--balance": balancePath = try scanner.value(for: argument)
            case "--reference": referencePath = try scanner.value(for: argument)
            case "--gradescope": gradescopePath = try scanner.value(for: argument)
            case "--untrusted": untrusted = true
            case "--csv": csvPath = try scanner.value(for: argument)
            case "--report-dir": reportDirectory = try scanner.value(for: argument)
            case "--fail-fast": failFast = true
            case "--retries": retries = try Self.parseRetries(try scanner.value(for: argument))
            case "--allow-flaky": allowFlaky = true
            case "--timeout": timeout = try scanner.seconds(for: argument)
            case "--output-limit":
                let text = try scanner.value(for: argument)
                guard let bytes = ProgramSettings.parseSize(text, in: 1...ResourceLimits.maximumOutput) else {
                    throw UsageError(
                        "--output-limit takes a size from 1 to \(ResourceLimits.maximumOutput >> 20)M (such as 1M or 65536), not `\(text)`")
                }
                outputLimit = bytes
            case "--limit": try parseLimit(try scanner.value(for: argument))
            case "--scratch-limit": scratchLimit = try Self.parseScratchLimit(try scanner.value(for: argument))
            case "--c-flags", "--link-flags": try addFlags(argument, try scanner.value(for: argument))
            case "--junit": junitPath = try scanner.value(for: argument)
            case "--json": jsonPath = try scanner.value(for: argument)
            case "-v", "--verbose": verbose = true
            case "--no-cache": cache.enabled = false
            case "--no-isolation": isolate = false
            case "--no-checks": checks = false
            case "--checks": checksAlways = try Self.parseChecks(try scanner.value(for: argument))
            case "--cache-dir": cache.directory = try scanner.value(for: argument)
            case let option where option.hasPrefix("-") && option.count > 1:
                throw UsageError.unknownOption(option, help: "asmrun test --help")
            default: paths.append(argument)
            }
        }
        if paths.isEmpty { paths = ["asm"] }
        try validate()
    }

    /// `--retries` and `--allow-flaky`: not with `--update`, and a grade is earned on the first run.
    private func validateRetries() throws {
        if retries > 0 && update {
            throw UsageError(
                "--retries with --update would record one run of a program whose runs differ",
                fix: "record without --retries: --update runs each new case again and records what differs as holes")
        }
        if allowFlaky && retries == 0 {
            throw UsageError("--allow-flaky needs --retries N: without retries no case is flaky")
        }
        if allowFlaky && (referencePath != nil || untrusted) {
            throw UsageError(
                "--allow-flaky would give points for a case that passed only on a retry; a grade is earned on the first run",
                fix: "grade without --allow-flaky: with --retries a flaky case is reported as FLAKY and scores 0")
        }
    }

    /// `--c-flags FLAGS` or `--link-flags FLAGS`, split as a shell would.
    private mutating func addFlags(_ option: String, _ text: String) throws {
        let words: [String]
        do { words = try ShellWords.split(text) } catch { throw UsageError("\(option): \(error)") }
        if option == "--c-flags" { callerFlags.compile += words } else { callerFlags.link += words }
    }

    /// `--limit memory=2G`: a ceiling of the run (`output` is `--output-limit`).
    private mutating func parseLimit(_ text: String) throws {
        let words = text.split(separator: "=", maxSplits: 1).map(String.init)
        var output: Int?
        if let problem = ceilings.apply(limit: words, outputLimit: &output) {
            throw UsageError("--limit \(text): \(problem) (write NAME=VALUE, such as memory=2G)")
        }
        if let output { outputLimit = output }
    }

    /// What a failure says to record that case alone: the run's `--runner` when not the default;
    /// none when the run records (`--update`) or grades (the reference decides).
    var acceptCommand: AcceptCommand? {
        guard !update, referencePath == nil, !untrusted else { return nil }
        let runner = runners == [.auto] ? [] : ["--runner", runners.map(\.description).joined(separator: ",")]
        return AcceptCommand(extraArguments: runner)
    }

    /// `--checks always` (every case run again for the ABI checks) or `on-failure` (the default).
    static func parseChecks(_ text: String) throws -> Bool {
        guard text == "always" || text == "on-failure" else {
            throw UsageError("--checks takes `always` or `on-failure` (the default), not `\(text)`", fix: "turn them off with --no-checks")
        }
        return text == "always"
    }

    static func parseScratchLimit(_ text: String) throws -> Int {
        guard let bytes = ProgramSettings.parseSize(text, in: (1 << 20)...(64 << 30)) else {
            throw UsageError("--scratch-limit takes a size from 1M to 64G (such as 512M), not `\(text)`")
        }
        return bytes
    }

    static func parseRunners(_ text: String) throws -> [RunnerChoice] {
        var choices: [RunnerChoice] = []
        for part in text.split(separator: ",").map({ $0.trimmingBlanks() }) where !part.isEmpty {
            let expanded: [RunnerChoice] = part == "all" ? [.native, .qemu] : [RunnerChoice(part)]
            for choice in expanded where !choices.contains(choice) { choices.append(choice) }
        }
        guard !choices.isEmpty else { throw UsageError("--runner needs at least one runner (native, qemu, all, or a command)") }
        return choices
    }

    static func parseRetries(_ text: String) throws -> Int {
        guard let value = Int(text), (0...Retries.maximum).contains(value) else {
            throw UsageError("--retries takes a number of retries from 0 to \(Retries.maximum), not `\(text)`")
        }
        return value
    }

    static func parseShard(_ text: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...Shard.maximumCount).contains(count),
            (1...count).contains(index)
        else {
            throw UsageError(
                "--shard takes K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount), not `\(text)`",
                fix: "for a matrix of 4 jobs: --shard 1/4 … --shard 4/4")
        }
        return Shard(index: index, count: count)
    }

    /// Options that only make sense together, or not at all together.
    private func validate() throws {
        if let filter {
            do { _ = try Regex(filter) } catch {
                throw UsageError("--filter `\(filter)` is not a valid regular expression")
            }
        }
        if balancePath != nil && shard == nil {
            throw UsageError("--balance deals the programs out to shards, so it needs --shard K/N")
        }
        if untrusted && update {
            throw UsageError(
                "--update with --untrusted would record untrusted programs' output as their expectations",
                fix: "record expectations from programs you trust, without --untrusted")
        }
        try validateReview()
        try validateRetries()
        if referencePath != nil && update {
            throw UsageError(
                "--update with --reference would record a submission's output as the reference",
                fix: "record the reference with `asmrun test REFERENCE --update`")
        }
    }

    /// `--review` records what the user accepts: not with a run that records everything, grades
    /// or only lists.
    private func validateReview() throws {
        guard review else { return }
        if update {
            throw UsageError(
                "--review with --update: --update records every case, --review only those you accept", fix: "use one of them")
        }
        if referencePath != nil || untrusted {
            throw UsageError(
                "--review with \(untrusted ? "--untrusted" : "--reference") would record a submission's output as its expectations",
                fix: "review expectations of programs you trust, without grading options")
        }
        if list { throw UsageError("--review with --list: --list runs nothing to review", fix: "use one of them") }
    }
}
