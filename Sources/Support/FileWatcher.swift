import Glibc
import Synchronization

/// Saves in a set of folders, through inotify: the folders are watched, not the files, so an
/// editor that saves by writing a temporary file and renaming it over the old one (vim's backup
/// copy, VS Code's atomic writes, `sed -i`) is seen as well as one that writes in place. A burst
/// of events (a save is several) is gathered into one change by a short quiet time, waited for
/// with `poll`'s timeout. `wake` ends a wait from another thread (an interrupt, a program's end).
package final class FileWatcher: Sendable {
    /// What ended a wait.
    package enum Change: Sendable, Equatable {
        /// These paths (`folder/name`, the folder as watched) were written, created, renamed
        /// into place or removed; each once, in the order first seen.
        case saved([String])
        /// The kernel's queue of events overflowed (`IN_Q_OVERFLOW`): events were lost, so
        /// anything watched may have changed. Each folder's path is watched again (one removed
        /// and made again meanwhile is watched anew; one gone is no longer watched).
        case overflowed
        /// `wake` was called.
        case woken
    }

    /// What one read of the queue holds (`events(in:folders:)`).
    struct Events: Equatable {
        var paths: [String] = []
        /// Watch descriptors whose folder was removed or replaced, no longer watched.
        var gone: [Int32] = []
        var overflowed = false
    }

    private let inotify: Int32
    /// `wake`'s: once woken, every wait ends at once (the watch is over).
    private let woken: Wakeup
    /// Each watch descriptor's folder.
    private let folders = Mutex<[Int32: String]>([:])

    /// `nil` when the system gives no inotify instance (too many, or none in this kernel).
    package init?() {
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        guard let woken = Wakeup() else {
            Glibc.close(inotify)
            return nil
        }
        self.woken = woken
    }

    deinit { Glibc.close(inotify) }

    /// Watches `folder` (again is harmless); false when it cannot be (gone, or the user's
    /// inotify watches are used up).
    @discardableResult
    package func watch(folder: String) -> Bool {
        let descriptor = inotify_add_watch(inotify, folder, Self.mask)
        guard descriptor >= 0 else { return false }
        folders.withLock { $0[descriptor] = folder }
        return true
    }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ONLYDIR)

    /// After an overflow, when the `IN_IGNORED` of a folder removed (and perhaps made again) may
    /// be among the events lost: each folder's path is watched again, which gives a live folder
    /// its own descriptor back and a new folder at the path a new one. An old descriptor no path
    /// has now is dropped, and its watch removed (a folder renamed away is no longer the path's).
    private func watchAgain() {
        let known = folders.withLock { $0 }
        var now: [Int32: String] = [:]
        for folder in known.values {
            let descriptor = inotify_add_watch(inotify, folder, Self.mask)
            if descriptor >= 0 { now[descriptor] = folder }
        }
        for old in known.keys where now[old] == nil { inotify_rm_watch(inotify, old) }
        folders.withLock { folders in
            for old in known.keys { folders.removeValue(forKey: old) }
            folders.merge(now) { $1 }
        }
    }

    /// The folders watched.
    package var watched: Set<String> { folders.withLock { Set($0.values) } }

    /// Watches each of `folders` not watched yet.
    package func watch(folders wanted: some Sequence<String>) {
        let known = watched
        for folder in wanted where !known.contains(folder) { watch(folder: folder) }
    }

    /// Ends the wait in progress, and every later one, with `.woken`; safe from any thread (an
    /// interrupt's).
    package func wake() { woken.signal() }

    /// Waits until a path `relevant` accepts changes, then until `quiet` seconds pass with no
    /// further event (at most `longest` seconds in all, so a file written without end still
    /// reruns); `.woken` as soon as `wake` is called, or `cancel` signalled.
    package func next(quiet: Double = 0.1, longest: Double = 2, cancel: Wakeup? = nil, relevant: (String) -> Bool) -> Change {
        var changed: [String] = []
        var firstSeen: Double?
        var overflowed = false
        while true {
            var timeout: Int32 = -1
            if let firstSeen {
                let left = min(quiet, firstSeen + longest - monotonicSeconds())
                if left <= 0 { return overflowed ? .overflowed : .saved(changed) }
                timeout = Int32(left * 1000) + 1
            }
            var entries = [inotify, woken.descriptor, cancel?.descriptor ?? -1].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, 3, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .woken }  // not a wait that can go on: end it rather than spin
            if entries[1].revents != 0 || entries[2].revents != 0 { return .woken }
            if ready == 0 { return overflowed ? .overflowed : .saved(changed) }  // quiet since the last event
            let events = drain()
            if events.overflowed {
                overflowed = true
                watchAgain()
                if firstSeen == nil { firstSeen = monotonicSeconds() }
            }
            for path in events.paths where relevant(path) && !changed.contains(path) {
                changed.append(path)
                if firstSeen == nil { firstSeen = monotonicSeconds() }
            }
        }
    }

    /// Every event queued.
    private func drain() -> Events {
        var all = Events()
        let size = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let got = Glibc.read(inotify, buffer, size)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return all }
            let events = Self.events(in: UnsafeRawBufferPointer(start: buffer, count: got), folders: folders.withLock { $0 })
            // The folder was removed or replaced (`rm -r`, `git checkout`): no longer watched,
            // so a later watch of its path adds it again.
            folders.withLock { folders in for descriptor in events.gone { folders.removeValue(forKey: descriptor) } }
            all.paths += events.paths
            all.gone += events.gone
            all.overflowed = all.overflowed || events.overflowed
        }
    }

    /// The events of one read, as paths (`folder/name`, the folder as `folders` names it); a
    /// folder removed or replaced is itself a change.
    static func events(in bytes: UnsafeRawBufferPointer, folders: [Int32: String]) -> Events {
        var events = Events()
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let length = min(Int(event.len), bytes.count - offset - header)
            let name = String(decoding: bytes[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                events.overflowed = true
            } else if let folder = folders[event.wd], !name.isEmpty {
                events.paths.append(folder == "/" ? "/" + name : folder + "/" + name)
            } else if event.mask & UInt32(IN_IGNORED) != 0, let folder = folders[event.wd] {
                events.gone.append(event.wd)
                events.paths.append(folder)
            }
            offset += header + Int(event.len)
        }
        return events
    }
}

/// A pipe that, once signalled, stays readable: what ends a `FileWatcher`'s waits.
package final class Wakeup: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    package init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    var descriptor: Int32 { readEnd }

    /// Wakes every wait on it, now and later (the byte is never read).
    package func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }
}
