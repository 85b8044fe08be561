import Foundation
import Glibc
import Testing

@testable import Support

/// The inotify wrapper: saves in place and by rename are seen, a burst is one change, what is
/// not relevant is not, and a wake ends a wait. The events are queued before `next` is called,
/// so nothing waits on timing.
struct FileWatcherTests {
    private func folder() throws -> (TemporaryDirectory, String, FileWatcher) {
        let made = try TemporaryDirectory(prefix: "watcher")
        let real = try #require(Files.realPath(made.path))
        let watcher = try #require(FileWatcher())
        #expect(watcher.watch(folder: real))
        return (made, real, watcher)
    }

    /// A wait that saw nothing ends after 30 s (and fails the test) instead of hanging.
    private func deadline() throws -> Wakeup {
        let wakeup = try #require(Wakeup())
        DetachedThread.start {
            _ = poll(nil, 0, 30_000)
            wakeup.signal()
        }
        return wakeup
    }

    @Test func aSaveInPlaceIsOneChange() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        try Fixture.write("one\n", to: real + "/a.asm")
        #expect(watcher.next(cancel: try deadline()) { $0 == real + "/a.asm" } == .saved([real + "/a.asm"]))
        // Two writes and closes in a burst, and another file: one change, each file once.
        for _ in 0..<2 {
            let fd = open(real + "/a.asm", O_WRONLY | O_TRUNC)
            for _ in 0..<3 { _ = write(fd, "x", 1) }
            close(fd)
        }
        let fd = open(real + "/b.inc", O_WRONLY | O_CREAT, 0o644)
        close(fd)
        #expect(watcher.next(cancel: try deadline()) { _ in true } == .saved([real + "/a.asm", real + "/b.inc"]))
    }

    @Test func aRenameOverTheFileIsASave() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        try Data("new\n".utf8).write(to: URL(fileURLWithPath: real + "/.a.asm.swp"))
        #expect(rename(real + "/.a.asm.swp", real + "/a.asm") == 0)
        // The temporary file's events are not relevant; the rename into place is.
        #expect(watcher.next(cancel: try deadline()) { !PathName.lastComponent(of: $0).hasPrefix(".") } == .saved([real + "/a.asm"]))
    }

    /// A watched folder removed and made again (`rm -r`, `git checkout`) is itself a change and
    /// no longer counted as watched, so it is watched again.
    @Test func aRemovedFolderIsAChangeAndIsWatchedAgain() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        let inner = real + "/part"
        #expect(mkdir(inner, 0o755) == 0)
        #expect(watcher.watch(folder: inner))
        _ = watcher.next(cancel: try deadline()) { $0 == inner }  // its creation
        #expect(rmdir(inner) == 0)
        #expect(watcher.next(cancel: try deadline()) { $0 == inner } == .saved([inner]))
        #expect(!watcher.watched.contains(inner))
        #expect(mkdir(inner, 0o755) == 0 && watcher.watch(folder: inner) && watcher.watched.contains(inner))
    }

    @Test func aWakeEndsTheWaitAndEveryLaterOne() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        try Fixture.write("report\n", to: real + "/report.json")
        let cancel = try #require(Wakeup())
        cancel.signal()
        #expect(watcher.next(cancel: cancel) { $0.hasSuffix(".asm") } == .woken)
        watcher.wake()
        #expect(watcher.next { _ in true } == .woken)
        #expect(watcher.next { _ in true } == .woken)
        #expect(!watcher.watch(folder: real + "/missing"))
    }

    /// `IN_Q_OVERFLOW` (watch descriptor -1, no name) read from the queue: events were lost.
    @Test func anOverflowEventIsRead() {
        func event(_ descriptor: Int32, _ mask: Int32, _ name: String) -> [UInt8] {
            let padded = name.isEmpty ? [] : Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count)
            var header = inotify_event()
            (header.wd, header.mask, header.len) = (descriptor, UInt32(mask), UInt32(padded.count))
            return withUnsafeBytes(of: &header) { Array($0) } + padded
        }
        let bytes = event(1, IN_CLOSE_WRITE, "a.asm") + event(-1, IN_Q_OVERFLOW, "") + event(1, IN_CREATE, "b.inc")
        let events = bytes.withUnsafeBytes { FileWatcher.events(in: $0, folders: [1: "/w"]) }
        #expect(events.paths == ["/w/a.asm", "/w/b.inc"] && events.overflowed && events.gone.isEmpty)
        let calm = event(1, IN_CLOSE_WRITE, "a.asm").withUnsafeBytes { FileWatcher.events(in: $0, folders: [1: "/w"]) }
        #expect(!calm.overflowed)
    }

    /// Makes more events in `folder` than the kernel queues (`fs.inotify.max_queued_events`):
    /// each file an `IN_CREATE` and an `IN_CLOSE_WRITE`.
    private func overflow(_ folder: String) throws {
        let limit = try #require(
            Int(try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8).trimmingWhitespace()))
        try #require(limit <= 1 << 18, "max_queued_events is \(limit): too many files to make")
        for index in 0...(limit / 2) {
            let fd = open(folder + "/f\(index)", O_WRONLY | O_CREAT, 0o644)
            close(fd)
        }
    }

    /// More events than the kernel queues before the watcher reads: the wait ends with
    /// `overflowed`, whatever is relevant.
    @Test func aQueueThatOverflowedEndsTheWaitAsOverflowed() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        try overflow(real)
        #expect(watcher.next(cancel: try deadline()) { _ in false } == .overflowed)
    }

    /// A watched folder removed (`rm -r`) and made again while the queue is full, so that its
    /// `IN_IGNORED` is lost with the rest: the overflow watches every path again, and a save in
    /// the new folder is seen.
    @Test func aFolderMadeAgainWhileEventsAreLostIsWatched() throws {
        let (made, real, watcher) = try folder()
        defer { made.remove() }
        let inner = real + "/part"
        #expect(mkdir(inner, 0o755) == 0 && watcher.watch(folder: inner))
        try Fixture.write("old\n", to: inner + "/old.asm")
        try overflow(real)
        Files.removeTree(inner)
        #expect(mkdir(inner, 0o755) == 0)
        #expect(watcher.next(cancel: try deadline()) { _ in false } == .overflowed)
        watcher.watch(folders: [real, inner])  // as a watch mode does before it waits again
        #expect(watcher.watched == [real, inner])
        try Fixture.write("new\n", to: inner + "/new.asm")
        #expect(watcher.next(cancel: try deadline()) { $0.hasSuffix(".asm") } == .saved([inner + "/new.asm"]))
    }
}
