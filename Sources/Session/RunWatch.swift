import Glibc
import Processes
import Sandbox
import Source
import Support
import Synchronization

/// `asmrun --watch FILE.asm`: what the runs of one program watch, and the save that ends a run
/// in progress (the program may wait on the terminal forever: the next save kills it, and the
/// front end builds and runs it again). Ctrl-C ends the watch (`interrupted`).
package final class RunWatch: Sendable {
    private let watcher: FileWatcher
    private let children: ChildRegistry
    private let monitor: InterruptMonitor
    private let stopped = Flag()
    private let set: Mutex<WatchSet>

    /// What restarts the program: saves of its files, or events lost while one of them changed.
    package struct Save: Sendable, Equatable {
        package var paths: [String]
        /// The kernel's queue of events overflowed: `paths` are the program's files found changed.
        package var overflowed = false
    }

    /// `sources`: the files named, watched until a build tells what else the program reads.
    /// Throws when inotify is unavailable.
    /// `abandon`: what a second Ctrl-C does (`Context.abandon`).
    package init(children: ChildRegistry, sources: [String], abandon: (@Sendable () -> Void)?) throws {
        let watcher = try FileWatcher.forWatchMode()
        let stopped = stopped
        self.watcher = watcher
        self.children = children
        monitor = InterruptMonitor(children: children, onInterrupt: Self.onInterrupt(stopped: stopped, watcher: watcher, abandon: abandon))
        let named = sources.compactMap { Files.isDirectory($0) ? Files.realPath($0) : WatchSet.canonical($0) }
        // A folder program's folder is watched as its own before its first build succeeds.
        let folder = sources.count == 1 && Files.isDirectory(sources[0]) ? Files.realPath(sources[0]) : nil
        set = Mutex(WatchSet(programs: [WatchSet.Program(path: sources.first ?? "", inputs: named, folder: folder, unbuilt: true)]))
    }

    /// What the `count`th interrupt does: the first ends the watch (the wait wakes); one that
    /// comes while the watch still ends is handed to `abandon`.
    static func onInterrupt(stopped: Flag, watcher: FileWatcher, abandon: (@Sendable () -> Void)?) -> @Sendable (_ count: Int) -> Void {
        { count in
            stopped.set()
            watcher.wake()
            if count > 1 { abandon?() }
        }
    }

    /// Ctrl-C (or SIGTERM) arrived: the watch ends.
    package var interrupted: Bool { monitor.interrupted || stopped.isSet }

    /// Ends the watch (the interrupt handler is given back).
    package func stop() { _ = monitor.stop() }

    /// What `program` reads, from its build: the files watched from now on.
    package func record(_ program: Program, headers: [String]) {
        set.withLock { $0 = WatchSet(programs: [WatchSet.Program(program, headers: headers)]) }
    }

    /// Runs `body` (the program) while watching: a save kills it (and every child), and is
    /// returned with `body`'s result once it ended.
    package func during<T>(_ body: () throws -> T) rethrows -> (T, saved: Save?) {
        let current = set.withLock { $0 }
        watchFolders(current)
        let stamps = InputStamps(current.inputs)
        let saved = Mutex<Save?>(nil)
        let done = Semaphore()
        let ended = Wakeup()
        let started =
            ended != nil
            && DetachedThread.start(stackSize: 256 << 10) { [watcher, children] in
                if let save = Self.nextSave(watcher, current, stamps, cancel: ended) {
                    saved.withLock { $0 = save }
                    children.endAll()
                }
                done.signal()
            }
        let result = try { () throws -> T in
            defer {
                if started {
                    ended?.signal()
                    done.wait()
                }
            }
            return try body()
        }()
        let paths = saved.withLock { $0 }
        if paths != nil && !stopped.isSet { children.resume() }
        return (result, paths)
    }

    /// Watches the folders of what the program reads (those recorded last, from now on), tells
    /// `waiting` how many are watched, and waits for a save of something the program reads;
    /// `nil` when interrupted.
    package func awaitSave(waiting: (_ folders: Int) -> Void) -> Save? {
        let current = set.withLock { $0 }
        watchFolders(current)
        let stamps = InputStamps(current.inputs)
        waiting(watcher.watched.count)
        while !interrupted {
            if let save = Self.nextSave(watcher, current, stamps, cancel: nil) { return save }
        }
        return nil
    }

    /// The next save that restarts the program (`restart`); `nil` when woken.
    private static func nextSave(_ watcher: FileWatcher, _ current: WatchSet, _ stamps: InputStamps, cancel: Wakeup?) -> Save? {
        while true {
            let change = watcher.next(cancel: cancel, relevant: current.isRelevant)
            if change == .woken { return nil }
            if let save = restart(for: change, current, since: stamps) { return save }
        }
    }

    /// Whether `change` restarts the program: a save of its own files, or events lost while one
    /// of them changed since the wait started (`stamps`); not events lost alone, which a program
    /// writing thousands of files beside itself would make without end.
    static func restart(for change: FileWatcher.Change, _ current: WatchSet, since stamps: InputStamps) -> Save? {
        switch change {
        case .woken: return nil
        case .overflowed:
            let changed = stamps.changed()
            return changed.isEmpty ? nil : Save(paths: changed, overflowed: true)
        case .saved(let paths): return touchesProgram(paths, current) ? Save(paths: paths) : nil
        }
    }

    /// Whether `paths` touch the program: its own files, not a new program beside it (one the
    /// program writes would otherwise restart it without end).
    static func touchesProgram(_ paths: [String], _ current: WatchSet) -> Bool {
        !current.affected(by: paths).programs.isEmpty
    }

    private func watchFolders(_ set: WatchSet) { watcher.watch(folders: set.folders.sorted()) }
}
