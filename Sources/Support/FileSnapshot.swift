import Glibc

/// What a file's status said when it was read (device, inode, size, change time), to tell later
/// with one `stat`, instead of reading and hashing it again, that nothing wrote to it since.
///
/// Only the kernel sets the change time, on every write, truncation and rename; but it ticks
/// coarsely (a jiffy, on kernels without fine-grained timestamps), so a file changed shortly
/// before it was read may be changed again within the same tick and keep its change time. Such
/// a snapshot is not `settled` and tells nothing: the file is read again, as git does with an
/// index entry written in the same second as the file ("racily clean").
package struct FileSnapshot: Sendable, Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let changedSeconds: Int
    private let changedNanoseconds: Int
    /// The change time was more than `margin` seconds before the read began.
    package let settled: Bool

    /// The snapshot of `status`, taken by a read that began at `readStarted` (`Self.now()`
    /// before the file was opened).
    package init(_ status: stat, readStarted: Double, margin: Double = 1) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        changedSeconds = status.st_ctim.tv_sec
        changedNanoseconds = status.st_ctim.tv_nsec
        settled = Double(changedSeconds) + Double(changedNanoseconds) / 1e9 + margin < readStarted
    }

    /// The wall clock the change times are read against, in seconds.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// True when the snapshot is settled and the file at `path` is still the one it describes,
    /// unchanged; false means only "read it again to know".
    package func stillDescribes(_ path: String) -> Bool {
        var now = stat()
        guard settled, stat(path, &now) == 0 else { return false }
        return UInt64(now.st_dev) == device && UInt64(now.st_ino) == inode && Int64(now.st_size) == size
            && now.st_ctim.tv_sec == changedSeconds && now.st_ctim.tv_nsec == changedNanoseconds
    }

    /// The snapshot as one word (`device:inode:size:seconds:nanoseconds`), for a record kept in
    /// a file; only a settled one is worth keeping (`nil` otherwise).
    package var text: String? { settled ? identity : nil }

    /// `device:inode:size:seconds:nanoseconds`, settled or not: within one run, a file whose
    /// identity is unchanged is the same file, unwritten (a save in place changes its change
    /// time, a rename its inode), as far as the change time's tick tells.
    package var identity: String { "\(device):\(inode):\(size):\(changedSeconds):\(changedNanoseconds)" }

    /// The identity of the file at `path` now; `nil` when it cannot be read (absent).
    package static func identity(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileSnapshot(status, readStarted: 0).identity
    }

    /// A settled snapshot read back from its `text`.
    package init?(text: Substring) {
        let fields = text.split(separator: ":")
        guard fields.count == 5, let device = UInt64(fields[0]), let inode = UInt64(fields[1]), let size = Int64(fields[2]),
            let seconds = Int(fields[3]), let nanoseconds = Int(fields[4])
        else { return nil }
        (self.device, self.inode, self.size, changedSeconds, changedNanoseconds, settled) = (
            device, inode, size, seconds, nanoseconds, true
        )
    }
}
