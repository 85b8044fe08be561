import Build
import Processes
import Run
import Suite
import Support

/// What `asmrun test` is asked to do: the paths, what to select, the runners, the limits and
/// the reports. A plain value: the command line makes one (`TestPlan(parsing:)` in CLI), a
/// watch mode or an editor would make their own.
package struct TestPlan: Sendable {
    /// Files and folders to test (default `asm/`).
    package var paths: [String] = []
    /// `--update`: record results as expectations.
    package var update = false
    /// `--review`: walk the failing cases after the run and record those the user accepts.
    package var review = false
    /// `-j`: parallel jobs.
    package var jobs = Processors.available
    /// `--runner`: the runners every case runs under, in order (the first is the baseline).
    package var runners: [RunnerChoice] = [.auto]
    /// `--filter`: a regular expression over case ids.
    package var filter: String?
    package var list = false
    /// `--shard K/N`.
    package var shard: Shard?
    /// `--balance REPORT`: deal shards by the timings of an earlier `--json` report.
    package var balancePath: String?
    /// `--reference DIR`: the expectations of every program, from that folder.
    package var referencePath: String?
    /// `--gradescope PATH`: write Gradescope's `results.json` there.
    package var gradescopePath: String?
    /// `--csv FILE`: a gradebook, one row per path given.
    package var csvPath: String?
    /// `--report-dir DIR`: a Markdown report per path given, for its student.
    package var reportDirectory: String?
    /// `--untrusted`: grading's rules without a reference (programs' policy directives ignored,
    /// files outside the path given refused).
    package var untrusted = false
    package var failFast = false
    /// `--retries N`: run a failed, crashed or timed-out case up to N more times; one that then
    /// passes is `flaky`.
    package var retries = 0
    /// `--allow-flaky`: a flaky case neither fails the run nor loses its points (never when grading).
    package var allowFlaky = false
    /// `--timeout`: seconds per case, the most a program may ask for.
    package var timeout: Double = 10
    /// `--output-limit`: bytes kept per stream, the most a program may ask for.
    package var outputLimit = 1 << 20
    /// `--limit NAME=VALUE`: the most a program may ask for (its default otherwise).
    package var ceilings = ResourceLimits()
    /// `--scratch-limit`: the most a case may write into its folder (a tmpfs of this size).
    package var scratchLimit = 256 << 20
    /// `--c-flags` and `--link-flags`: the user's own, for every program's build.
    package var callerFlags = CallerFlags()
    package var junitPath: String?
    package var jsonPath: String?
    package var verbose = false
    package var cache = CacheOptions()
    /// Run cases without network and with a read-only file system where possible (`--no-isolation` turns it off).
    package var isolate = true
    /// The ABI checks (`--no-checks` turns them off).
    package var checks = true
    /// `--checks always`: every case run again for the ABI checks, a finding failing it.
    package var checksAlways = false

    package init() {}

    /// The plain values the Suite stage runs with.
    package var configuration: SuiteConfiguration {
        var configuration = SuiteConfiguration(jobs: jobs)
        configuration.recording = update
        configuration.failFast = failFast
        configuration.retries = retries
        configuration.timeout = timeout
        configuration.outputLimit = outputLimit
        configuration.ceilings = ceilings
        configuration.traceCommands = verbose
        configuration.explainsExpectedCrashes = verbose
        configuration.checks = checks
        configuration.checksAlways = checks && checksAlways
        return configuration
    }
}
