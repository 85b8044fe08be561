import Glibc

/// Seconds on the monotonic clock: durations and deadlines never jump with the wall clock.
package func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
