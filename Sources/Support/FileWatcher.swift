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
        /// `wake` was called.
        case woken
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
        let mask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ONLYDIR
        let descriptor = inotify_add_watch(inotify, folder, UInt32(mask))
        guard descriptor >= 0 else { return false }
        folders.withLock { $0[descriptor] = folder }
        return true
    }

    /// The folders watched.
    package var watched: Set<String> { folders.withLock { Set($0.values) } }

    /// Ends the wait in progress, and every later one, with `.woken`; safe from any thread (an
    /// interrupt's).
    package func wake() { woken.signal() }

    /// Waits until a path `relevant` accepts changes, then until `quiet` seconds pass with no
    /// further event (at most `longest` seconds in all, so a file written without end still
    /// reruns); `.woken` as soon as `wake` is called, or `cancel` signalled.
    package func next(quiet: Double = 0.1, longest: Double = 2, cancel: Wakeup? = nil, relevant: (String) -> Bool) -> Change {
        var changed: [String] = []
        var firstSeen: Double?
        while true {
            var timeout: Int32 = -1
            if let firstSeen {
                let left = min(quiet, firstSeen + longest - monotonicSeconds())
                if left <= 0 { return .saved(changed) }
                timeout = Int32(left * 1000) + 1
            }
            var entries = [inotify, woken.descriptor, cancel?.descriptor ?? -1].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, 3, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .woken }  // not a wait that can go on: end it rather than spin
            if entries[1].revents != 0 || entries[2].revents != 0 { return .woken }
            if ready == 0 { return .saved(changed) }  // quiet since the last event
            for path in drain() where relevant(path) && !changed.contains(path) {
                changed.append(path)
                if firstSeen == nil { firstSeen = monotonicSeconds() }
            }
        }
    }

    /// Every event queued, as paths.
    private func drain() -> [String] {
        var paths: [String] = []
        let size = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let got = Glibc.read(inotify, buffer, size)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return paths }
            var offset = 0
            let known = folders.withLock { $0 }
            while offset + MemoryLayout<inotify_event>.size <= got {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
                let name = Int(event.len) > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                if let folder = known[event.wd], !name.isEmpty {
                    paths.append(folder == "/" ? "/" + name : folder + "/" + name)
                } else if event.mask & UInt32(IN_IGNORED) != 0, let folder = known[event.wd] {
                    // The folder was removed or replaced (`rm -r`, `git checkout`): no longer
                    // watched, so a later watch of its path adds it again; itself a change.
                    _ = folders.withLock { $0.removeValue(forKey: event.wd) }
                    paths.append(folder)
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
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
