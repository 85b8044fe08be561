import Glibc

/// A private directory under the scratch location (see `ScratchLocation`) that is removed,
/// whatever is in it.
///
/// A directory made for a whole run is *claimed*: it holds `.asmrun-owner` (the pid, for people)
/// locked with `flock` for as long as the run lives. The kernel drops the lock when the process
/// dies, even by SIGKILL, so the next run can tell a dead run's folder from a live one's and
/// remove it (`Sandbox.AbandonedScratch`), whatever pid namespace either lives in.
package struct TemporaryDirectory: Sendable {
    package let path: String
    /// The locked owner file's descriptor, or -1.
    private let owner: Int32

    /// The name of the owner file in a claimed directory.
    package static let ownerName = ".asmrun-owner"

    package init(prefix: String = "run", environment: [String: String] = [:], claimed: Bool = false) throws {
        let base = ScratchLocation.base(environment: environment)
        let name = claimed ? "asmrun-\(prefix)-\(getpid())-XXXXXX" : "asmrun-\(prefix)-XXXXXX"
        var template = Array("\(base)/\(name)".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(
                path: base, problem: "cannot hold a temporary directory (\(errorText()))",
                fix: "set TMPDIR to a writable directory")
        }
        path = String(cString: created)
        owner = claimed ? Self.claim(path) : -1
    }

    /// Creates and locks the owner file; -1 when that fails (the folder is then left to its run).
    /// It is locked under a private name and only then renamed into place, so a sweeper never
    /// finds an owner file that is not locked yet (it would take the lock and remove a live folder).
    private static func claim(_ path: String) -> Int32 {
        let staging = path + "/" + ownerName + "-new"
        let fd = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return -1 }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(staging, path + "/" + ownerName) == 0 else {
            unlink(staging)
            close(fd)
            return -1
        }
        writeAll(Array("\(getpid())\n".utf8), to: fd)
        return fd
    }

    /// Removes the directory and everything below it, making unreadable folders writable first;
    /// a claimed one is unlocked only once it is gone.
    package func remove() {
        // The owner file first: a folder left empty then goes with one rmdir, without a listing.
        if owner >= 0 { unlink(path + "/" + Self.ownerName) }
        Files.removeTree(path)
        if owner >= 0 { close(owner) }
    }
}
