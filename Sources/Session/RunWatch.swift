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

    /// `sources`: the files named, watched until a build tells what else the program reads.
    /// Throws when inotify is unavailable.
    /// `abandon`: what a second Ctrl-C does (`Context.abandon`).
    package init(children: ChildRegistry, sources: [String], abandon: (@Sendable () -> Void)?) throws {
        let watcher = try FileWatcher.forWatchMode()
        let stopped = stopped
        self.watcher = watcher
        self.children = children
        monitor = InterruptMonitor(children: children) { count in
            stopped.set()
            watcher.wake()
            if count > 1 { abandon?() }
        }
        let named = sources.compactMap { Files.isDirectory($0) ? Files.realPath($0) : WatchSet.canonical($0) }
        // A folder program's folder is watched as its own before its first build succeeds.
        let folder = sources.count == 1 && Files.isDirectory(sources[0]) ? Files.realPath(sources[0]) : nil
        set = Mutex(WatchSet(programs: [WatchSet.Program(path: sources.first ?? "", inputs: named, folder: folder)]))
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
    package func during<T>(_ body: () throws -> T) rethrows -> (T, saved: [String]?) {
        let current = set.withLock { $0 }
        watchFolders(current)
        let saved = Mutex<[String]?>(nil)
        let done = Semaphore()
        let ended = Wakeup()
        let started =
            ended != nil
            && DetachedThread.start(stackSize: 256 << 10) { [watcher, children] in
                if let paths = Self.nextSave(watcher, current, cancel: ended) {
                    saved.withLock { $0 = paths }
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
    package func awaitSave(waiting: (_ folders: Int) -> Void) -> [String]? {
        let current = set.withLock { $0 }
        watchFolders(current)
        waiting(watcher.watched.count)
        while !interrupted {
            if let paths = Self.nextSave(watcher, current, cancel: nil) { return paths }
        }
        return nil
    }

    /// The next save that touches the program, or its own path when events were lost (anything
    /// may have changed); `nil` when woken.
    private static func nextSave(_ watcher: FileWatcher, _ current: WatchSet, cancel: Wakeup?) -> [String]? {
        while true {
            switch watcher.next(cancel: cancel, relevant: current.isRelevant) {
            case .woken: return nil
            case .overflowed: return current.programs.sorted()
            case .saved(let paths): if touchesProgram(paths, current) { return paths }
            }
        }
    }

    /// Whether `paths` touch the program: its own files, not a new program beside it (one the
    /// program writes would otherwise restart it without end).
    static func touchesProgram(_ paths: [String], _ current: WatchSet) -> Bool {
        !current.affected(by: paths).programs.isEmpty
    }

    private func watchFolders(_ set: WatchSet) { watcher.watch(folders: set.folders.sorted()) }
}
