import Processes
import Report
import Session
import Support
import Synchronization

/// `asmrun test`: parses the command line into a `TestPlan`, runs a `TestSession`, prints what
/// it tells (`ConsoleReporter`) and the summary, and returns the exit status.
enum TestCommand {
    static func main(_ arguments: [String], context: Context) -> Int32 {
        AsmRun.subcommand(arguments, help: Usage.test, failing: .test, context: context) {
            execute(TestSession(plan: try TestPlan(parsing: arguments), context: context))
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
            // The reporter is made once the session knows how many results will come.
            let reporter = Mutex<ConsoleReporter?>(nil)
            let outcome = try session.run { event in
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
            guard let outcome, let console = reporter.withLock({ $0 }) else { return ExitStatus.interrupted }
            var (extra, failed, interrupted) = (outcome.suite.holeWarnings + outcome.scoreLines, outcome.tally.failed, outcome.interrupted)
            if plan.review && !interrupted {
                let review = Review(
                    console: context.console, diagnostics: context.diagnostics, readKey: TerminalKeys.read, record: session.accept)
                // Raw while keys are asked; as it was while the accepted cases are recorded (Ctrl-C interrupts).
                var reviewed = TerminalKeys.raw { review.decide(Review.reviewable(outcome.suite.reports)) }
                review.recordAccepted(&reviewed)
                (extra, failed, interrupted) = (
                    extra + reviewed.summaryLines, reviewed.failuresLeft(in: outcome.suite.reports), reviewed.interrupted
                )
            }
            console.finish(complete: outcome.complete, seconds: outcome.seconds, reason: outcome.reason, extra: extra)
            return ExitStatus.test(
                failed: failed, flaky: outcome.tally.flaky, allowFlaky: plan.allowFlaky, complete: outcome.complete,
                pathProblems: outcome.pathProblems, unwrittenReports: outcome.unwrittenReports, interrupted: interrupted)
        } catch {
            return ExitStatus.failed(error, in: .test, context.diagnostics)
        }
    }
}
