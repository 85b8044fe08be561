import Glibc
import Processes
import Sandbox
import Support

/// `asmrun test --watch`: runs a `TestSession`, then waits for a save of something a program
/// reads (`WatchSet`, through a `FileWatcher`) and runs again the programs it touches, until
/// Ctrl-C. A front end observes its `Event`s and prints them.
package struct TestWatch: Sendable {
    /// What a watch tells its front end.
    package enum Event: Sendable {
        /// A run is about to start; `changed` names the saves that started it (empty: the first).
        case starting(changed: [String], programs: Int)
        /// An event of the run.
        case session(TestEvent)
        /// A run ended (`nil`: interrupted while it loaded).
        case finished(TestOutcome?)
        /// A run could not start (the error, not yet emitted): the watch goes on.
        case failed(any Error)
        /// Waiting for a save in this many folders.
        case waiting(folders: Int)
        /// The kernel lost events (its queue overflowed): every program runs again, as the
        /// `starting` that follows says.
        case overflowed
    }

    package let plan: TestPlan
    package let context: Context

    package init(plan: TestPlan, context: Context) {
        var plan = plan
        plan.watch = true
        self.plan = plan
        self.context = context
    }

    /// Runs until Ctrl-C (or SIGTERM); throws when the first run cannot start (a usage error) or
    /// inotify is unavailable. A later run that cannot start is told as `failed`, and the watch
    /// waits for the save that mends it.
    package func run(observe: @escaping @Sendable (Event) -> Void) throws {
        let watcher = try FileWatcher.forWatchMode()
        let interrupted = Flag()
        let monitor = InterruptMonitor(children: context.launcher.children) { [abandon = context.abandon] count in
            interrupted.set()
            watcher.wake()
            if count > 1 { abandon?() }
        }
        defer { _ = monitor.stop() }
        // The command line names at least one path (`asm` by default).
        var roots = plan.paths.flatMap { WatchSet.folders(below: $0) }
        var set = WatchSet(folders: roots)
        var current = plan
        var changed: [String] = []
        var first = true
        while !interrupted.isSet {
            observe(.starting(changed: changed, programs: current.rerun?.programs.count ?? set.programs.count))
            do {
                let outcome = try TestSession(plan: current, context: context).run { observe(.session($0)) }
                observe(.finished(outcome))
                guard let outcome, !outcome.interrupted else { return }
                set = WatchSet(programs: outcome.watched, folders: roots)
            } catch {
                if first { throw error }
                observe(.failed(error))
            }
            first = false
            guard let next = awaitSave(watcher, set, interrupted, observe) else { return }
            (changed, current.rerun) = (next.changed, next.rerun)
            // Folders made while events were lost are found again, and watched even when the
            // rerun cannot start (the set is then the last one's).
            if next.rerun == nil {
                roots = plan.paths.flatMap { WatchSet.folders(below: $0) }
                set.watch(folders: roots)
            }
        }
    }

    /// Waits for a save that touches a program (`rerun` nil: the events were lost, all run
    /// again); `nil` when interrupted.
    private func awaitSave(
        _ watcher: FileWatcher, _ set: WatchSet, _ interrupted: Flag, _ observe: @Sendable (Event) -> Void
    ) -> (changed: [String], rerun: TestPlan.Rerun?)? {
        watcher.watch(folders: set.folders.sorted())
        observe(.waiting(folders: watcher.watched.count))
        while !interrupted.isSet {
            let paths: [String]
            switch watcher.next(relevant: set.isRelevant) {
            case .woken: continue
            case .overflowed:
                // Anything may have changed: the whole plan runs again (`rerun` nil).
                observe(.overflowed)
                return ([], nil)
            case .saved(let saved): paths = saved
            }
            let affected = set.affected(by: paths)
            if affected.isEmpty { continue }
            // New folders are watched at once: a program saved into one right away is seen.
            for path in paths where Files.isDirectory(path) { watcher.watch(folder: path) }
            return (paths, TestPlan.Rerun(programs: affected.programs, known: set.programs))
        }
        return nil
    }
}
