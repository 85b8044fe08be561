import Glibc

/// Where asmrun puts short-lived files (objects, private copies of executables, case folders).
///
/// `$TMPDIR` when set; otherwise `/dev/shm` when it is a writable tmpfs with room to spare,
/// because creating and deleting thousands of small files costs far less there than on a disk
/// file system (on ext4 the inode allocator's scan of recently deleted inodes was a third of
/// asmrun's CPU time in a profile of a cold suite); otherwise `/tmp`.
package enum ScratchLocation {
    /// Room `/dev/shm` must have before asmrun uses it.
    static let minimumFreeBytes: UInt64 = 512 << 20

    /// The base folder for an environment.
    package static func base(environment: [String: String]) -> String {
        if let tmpdir = environment["TMPDIR"], !tmpdir.isEmpty { return tmpdir }
        if access("/dev/shm", W_OK) == 0, let free = Files.freeBytes("/dev/shm"), free >= minimumFreeBytes { return "/dev/shm" }
        return "/tmp"
    }
}
