import Processes
import Session
import Support
import Synchronization

extension TestCommand {
    /// `asmrun test --watch`: each run printed as `asmrun test` prints it, on a cleared screen
    /// when standard output is a terminal; ends with 130 on Ctrl-C (see `ExitStatus.watch`), 2
    /// when the first run cannot start.
    static func watch(_ watch: TestWatch) -> Int32 {
        let context = watch.context
        let printer = Mutex(TestCommand.RunPrinter(plan: watch.plan, context: context))
        do {
            try watch.run { event in
                switch event {
                case .starting(let changed, let programs):
                    guard !changed.isEmpty else { return }
                    Watching.clearScreen(context.console)
                    let count = programs == 1 ? "1 program" : "\(programs) programs"
                    let what = programs == 0 ? "looking for new programs" : "running \(count) again"
                    context.console.write("asmrun: \(Watching.names(changed)) saved: \(what)\n")
                    printer.withLock { $0 = TestCommand.RunPrinter(plan: watch.plan, context: context) }
                case .session(let event): printer.withLock { $0 }.show(event)
                case .finished(let outcome): _ = printer.withLock { $0 }.finish(outcome)
                case .failed(let error): context.diagnostics.error(error)
                case .waiting(let folders): context.console.write(Watching.waitingLine(folders: folders))
                case .overflowed:
                    Watching.clearScreen(context.console)
                    context.console.write(Watching.overflowLine(then: "running everything again"))
                    printer.withLock { $0 = TestCommand.RunPrinter(plan: watch.plan, context: context) }
                }
            }
        } catch {
            return ExitStatus.failed(error, in: .test, context.diagnostics)
        }
        return ExitStatus.watch
    }
}

/// What both watch modes print between runs.
enum Watching {
    /// Clears the screen and its scroll-back, on a terminal only: a run piped to a file or a
    /// program is kept whole, one run after the other.
    static func clearScreen(_ console: Console) {
        if console.outputIsTerminal { console.write("\u{1B}[H\u{1B}[2J\u{1B}[3J") }
    }

    /// The saves that start a run, escaped: the first few names, then how many more.
    static func names(_ paths: [String]) -> String {
        let shown = paths.prefix(3).map { PathName.lastComponent(of: $0).displayEscaped }.joined(separator: ", ")
        return paths.count > 3 ? shown + " and \(paths.count - 3) more" : shown
    }

    /// Events were lost, and `what` follows; and the fix, should it happen again.
    static func overflowLine(then what: String) -> String {
        "asmrun: too many changes at once to follow (the kernel's event queue overflowed): \(what);"
            + " raise fs.inotify.max_queued_events if it recurs\n"
    }

    static func waitingLine(folders: Int) -> String {
        "asmrun: watching \(folders) folder\(folders == 1 ? "" : "s"); save a file to run again, Ctrl-C to stop\n"
    }
}
