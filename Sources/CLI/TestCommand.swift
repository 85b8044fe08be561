import Processes
import Report
import Session
import Support
import Synchronization

/// `asmrun test`: parses the command line into a `TestPlan`, runs a `TestSession` (or a
/// `TestWatch` with `--watch`), prints what it tells (`ConsoleReporter`) and the summary, and
/// returns the exit status.
enum TestCommand {
    static func main(_ arguments: [String], context: Context) -> Int32 {
        AsmRun.subcommand(arguments, help: Usage.test, failing: .test, context: context) {
            let plan = try TestPlan(parsing: arguments)
            if !plan.isolate && (plan.referencePath != nil || plan.untrusted) {
                context.diagnostics.warning(
                    "--no-isolation with \(plan.untrusted ? "--untrusted" : "--reference"): a submission's cases may write "
                        + "wherever you can (the reference, other submissions, their results); grade in a throwaway copy or container")
            }
            if plan.watch { return watch(TestWatch(plan: plan, context: context)) }
            return execute(TestSession(plan: plan, context: context))
        }
    }

    /// Runs `session`: 0 when everything passed, 1 on any failure, 2 on a usage or setup error,
    /// 3 on a flaky case without `--allow-flaky`, 130 when interrupted (see `ExitStatus.test`).
    static func execute(_ session: TestSession) -> Int32 {
        let (plan, context) = (session.plan, session.context)
        do {
            if plan.review && !TerminalKeys.inputIsTerminal {
                throw UsageError(
                    "--review asks for keys on a terminal, and standard input is not one",
                    fix: "run it in a terminal, or record a case with `--update --filter ID`")
            }
            if plan.list {
                for line in try session.list() { context.console.write(line + "\n") }
                return ExitStatus.success
            }
            let printer = RunPrinter(plan: plan, context: context)
            let outcome = try session.run { printer.show($0) }
            guard plan.review, let outcome, !outcome.interrupted, let console = printer.console else { return printer.finish(outcome) }
            let review = Review(
                console: context.console, diagnostics: context.diagnostics, readKey: TerminalKeys.read, record: session.accept)
            // Raw while keys are asked; as it was while the accepted cases are recorded (Ctrl-C interrupts).
            var reviewed = TerminalKeys.raw { review.decide(Review.reviewable(outcome.suite.reports)) }
            review.recordAccepted(&reviewed)
            let extra = outcome.suite.holeWarnings + outcome.scoreLines + reviewed.summaryLines
            console.finish(complete: outcome.complete, seconds: outcome.seconds, reason: outcome.reason, extra: extra)
            return ExitStatus.test(
                failed: reviewed.failuresLeft(in: outcome.suite.reports), flaky: outcome.tally.flaky, allowFlaky: plan.allowFlaky,
                complete: outcome.complete, pathProblems: outcome.pathProblems, unwrittenReports: outcome.unwrittenReports,
                interrupted: reviewed.interrupted)
        } catch {
            return ExitStatus.failed(error, in: .test, context.diagnostics)
        }
    }

    /// Prints one run: its cases as they come, then its summary.
    final class RunPrinter: Sendable {
        let plan: TestPlan
        let context: Context
        /// Made once the session knows how many results will come.
        private let reporter = Mutex<ConsoleReporter?>(nil)

        init(plan: TestPlan, context: Context) {
            self.plan = plan
            self.context = context
        }

        func show(_ event: TestEvent) {
            switch event {
            case .started(let total):
                let made = ConsoleReporter(
                    console: context.console, diagnostics: context.diagnostics, verbose: plan.verbose,
                    environment: context.environment, total: total, accept: plan.acceptCommand)
                reporter.withLock { $0 = made }
            case .caseFinished(let report): reporter.withLock { $0 }?.caseFinished(report)
            case .casesRan(let count): reporter.withLock { $0 }?.caseRan(count)
            case .remark(let text): reporter.withLock { $0 }?.note(text)
            }
        }

        /// The reporter, once the run started.
        var console: ConsoleReporter? { reporter.withLock { $0 } }

        /// The summary, and the run's exit status.
        func finish(_ outcome: TestOutcome?) -> Int32 {
            guard let outcome, let console else { return ExitStatus.interrupted }
            console.finish(
                complete: outcome.complete, seconds: outcome.seconds, reason: outcome.reason,
                extra: outcome.suite.holeWarnings + outcome.scoreLines)
            return ExitStatus.test(
                failed: outcome.tally.failed, flaky: outcome.tally.flaky, allowFlaky: plan.allowFlaky, complete: outcome.complete,
                pathProblems: outcome.pathProblems, unwrittenReports: outcome.unwrittenReports, interrupted: outcome.interrupted)
        }
    }
}
