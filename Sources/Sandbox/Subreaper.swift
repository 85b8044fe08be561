import CAsmRunSpawn
import Synchronization

/// PR_SET_CHILD_SUBREAPER is an attribute of the whole process: orphans of a case are handed to
/// asmrun instead of init, so they can be found and ended. Each run takes a lease; the attribute
/// is set by the first lease and cleared when the last one ends.
enum Subreaper {
    private static let leases = Mutex(0)

    /// Sets the attribute if no run holds it; false when the kernel refuses.
    static func acquire() -> Bool {
        leases.withLock { count in
            if count == 0 && asmrun_set_subreaper(1) != 0 { return false }
            count += 1
            return true
        }
    }

    static func release() {
        leases.withLock { count in
            guard count > 0 else { return }
            count -= 1
            if count == 0 { _ = asmrun_set_subreaper(0) }
        }
    }
}
