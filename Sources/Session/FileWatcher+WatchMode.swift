import Glibc
import Processes
import Support

extension FileWatcher {
    /// The watcher of `asmrun --watch` and `asmrun test --watch`; throws the one line that says
    /// why there is none (no inotify instance left) and what to do.
    static func forWatchMode() throws(UsageError) -> FileWatcher {
        guard let watcher = FileWatcher() else {
            throw UsageError(
                "--watch cannot watch files: the system gives no inotify instance (\(ErrorNumber.name(of: errno) ?? "error \(errno)"))",
                fix: "raise fs.inotify.max_user_instances, or run without --watch")
        }
        return watcher
    }
}
