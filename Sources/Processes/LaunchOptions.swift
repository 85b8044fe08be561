import Support

/// Where a child's standard input comes from.
package enum InputSource: Sendable, Equatable {
    /// asmrun's own standard input (the terminal in run mode).
    case inherit
    /// `/dev/null`: reads return end-of-file at once.
    case empty
    /// These bytes, then end-of-file.
    case bytes([UInt8])
    /// A descriptor of asmrun's (a file reopened, a relay's pipe), which stays the caller's to close.
    case descriptor(Int32)
}

/// Where a child's standard output or error goes.
package enum OutputSink: Sendable, Equatable {
    /// asmrun's own stream (live in run mode).
    case inherit
    /// Kept in memory, at most `limit` bytes; more ends the child and marks the result.
    case capture(limit: Int)
    /// Copied live to one of asmrun's descriptors, with lines dropped by a filter.
    case forward(to: Int32, filter: LineFilter)
}

/// How to start and supervise one child.
package struct LaunchOptions: Sendable, Equatable {
    package var stdin: InputSource = .empty
    package var stdout: OutputSink = .capture(limit: 1 << 20)
    package var stderr: OutputSink = .capture(limit: 1 << 20)
    /// Standard output and error both go to one file, read once the child ended (into the
    /// result's `stdout`, up to the stdout capture's limit), in the order written, instead of
    /// pipes: a tool's exit closed each pipe and woke its supervisor twice, preempting the tool
    /// in its last steps. For tools, whose output is only shown when they fail and whose file
    /// size limit bounds the file.
    package var outputToFile = false
    /// Seconds before the child's process group gets SIGTERM; `nil` waits forever.
    package var timeout: Double?
    /// Seconds between SIGTERM and SIGKILL.
    var killGrace: Double = 0.5
    /// Puts the child in its own process group, so its whole tree can be ended.
    package var newProcessGroup = true
    /// The child gives up asmrun's controlling terminal (TIOCNOTTY): it cannot open /dev/tty,
    /// write to the user's screen or push input into the user's shell (TIOCSTI). For cases and
    /// builds, never for run mode's program.
    package var withoutTerminal = false
    package var limits = ResourceLimits()
    /// The file of a cgroup the child joins before exec by writing `0` (`CgroupTree.joinFile`).
    package var cgroupProcs: String?
    /// Namespaces the child enters before exec (no network, read-only file system).
    package var isolation: Namespaces?
    /// The child is PID 1 of a PID namespace of its own (made inside `isolation`'s user
    /// namespace, where there is one): every process it starts dies when it ends, a daemon
    /// that left its process group and session too. For the tools of contained builds; a
    /// SIGTERM to it is ignored unless it handles it (SIGKILL follows after `killGrace`).
    package var ownPIDNamespace = false
    /// Namespaces of its own, capabilities and the system call filter.
    package var confinement = Confinement()
    /// The warden to run it in (its namespaces, cgroup and filter; the limits, stdio, folder and
    /// capabilities are still the child's own), instead of namespaces of the child's own.
    package var warden: Warden?
    /// With case namespaces: the folder (as asmrun sees it) the case sees at the command's
    /// working directory (`Confinement.caseView`); `nil`: the working directory itself.
    package var caseFolder: String?

    package init() {}
}
