import Glibc
import Processes
import Support

/// What an asmrun that died (SIGKILL, a crash, the machine's OOM killer) left in the scratch
/// location: its claimed folders (see `TemporaryDirectory`), whose owner lock the kernel released,
/// and any case process still running from them. Swept at the start of the next run; a folder
/// of a live run (locked) or one asmrun did not claim is never touched.
package enum AbandonedScratch {
    /// Removes the abandoned folders under the scratch base for `environment`; returns how many.
    @discardableResult
    package static func sweep(environment: [String: String]) -> Int {
        let base = ScratchLocation.base(environment: environment)
        var removed = 0
        for name in (try? Files.list(base)) ?? [] where name.hasPrefix("asmrun-") {
            let folder = base + "/" + name
            var info = stat()
            guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            let fd = open(folder + "/" + TemporaryDirectory.ownerName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            endProcesses(under: folder)
            Files.removeTree(folder)
            removed += 1
        }
        return removed
    }

    /// Kills what still runs from a dead run's case folders: every case process carries
    /// `TMPDIR=<its case folder>`, which lies below the run's folder.
    private static func endProcesses(under folder: String) {
        let marker = Array("TMPDIR=\(folder)/".utf8)
        let me = getpid()
        var doomed: [pid_t] = []
        for name in (try? Files.list("/proc")) ?? [] {
            guard let pid = pid_t(name), pid != me, let environ = try? Files.read("/proc/\(name)/environ") else { continue }
            if ([0] + environ).firstRange(of: [0] + marker) != nil { doomed.append(pid) }
        }
        if !doomed.isEmpty { ProcessExit.signalAndAwait(doomed) }
    }
}
