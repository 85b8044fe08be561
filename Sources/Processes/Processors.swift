import CAsmRunSpawn
import Glibc

/// The processors this process may use: those of its affinity mask, fewer when a cgroup CPU
/// quota allows less (a container given `--cpus 2` on a larger host). What Foundation's
/// `activeProcessorCount` answers, without setting up `ProcessInfo`, which took a quarter of a
/// millisecond of every `asmrun test`.
package enum Processors {
    package static var available: Int {
        let count = affinityCount() ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard let quota = quotaProcessors() else { return max(1, count) }
        return max(1, min(count, quota))
    }

    /// Keeps the calling thread, and the processes it starts from now on, to the `index`-th
    /// (from 0) processor of its affinity mask; `false` when the mask has fewer or the kernel
    /// refuses.
    @discardableResult
    package static func pinCurrentThread(to index: Int) -> Bool {
        index >= 0 && index < Int(Int32.max) && asmrun_pin_thread(Int32(index)) == 0
    }

    /// The processors of the affinity mask.
    package static func affinityCount() -> Int? {
        let count = Int(asmrun_affinity_count())
        return count > 0 ? count : nil
    }

    /// The quota in whole processors (rounded up), from cgroup v2's `cpu.max` or v1's
    /// `cpu.cfs_quota_us` and `cpu.cfs_period_us`; `nil` when there is none.
    private static func quotaProcessors() -> Int? {
        if let line = read("/sys/fs/cgroup/cpu.max") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
            return processors(quota: quota, period: period)
        }
        guard let quota = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap({ Int($0) }),
            let period = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap({ Int($0) })
        else { return nil }
        return processors(quota: quota, period: period)
    }

    /// `quota` microseconds of CPU per `period`, as whole processors; `nil` without a limit.
    static func processors(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The first line of a small file, or `nil`.
    private static func read(_ path: String) -> Substring? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = Glibc.read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first
    }
}
