/// Descriptors of namespaces prepared by `Containment`, entered by each child.
public struct Namespaces: Sendable, Equatable {
    /// An unprivileged user namespace that owns the other two (when asmrun is not root), or -1.
    public var userNamespace: Int32 = -1
    /// A network namespace without interfaces, or -1.
    public var networkNamespace: Int32
    /// A mount namespace where only the scratch folder is writable, or -1.
    public var mountNamespace: Int32
}

/// Where a child's standard input comes from.
public enum InputSource: Sendable, Equatable {
    /// asmrun's own standard input (the terminal in run mode).
    case inherit
    /// `/dev/null`: reads return end-of-file at once.
    case empty
    /// These bytes, then end-of-file.
    case bytes([UInt8])
}

/// Where a child's standard output or error goes.
public enum OutputSink: Sendable, Equatable {
    /// asmrun's own stream (live in run mode).
    case inherit
    /// Kept in memory, at most `limit` bytes; more ends the child and marks the result.
    case capture(limit: Int)
    /// Copied live to one of asmrun's descriptors, with lines dropped by a filter.
    case forward(to: Int32, filter: LineFilter)
}

/// How to start and supervise one child.
public struct LaunchOptions: Sendable, Equatable {
    /// Standard input.
    public var stdin: InputSource = .empty
    /// Standard output.
    public var stdout: OutputSink = .capture(limit: 1 << 20)
    /// Standard error.
    public var stderr: OutputSink = .capture(limit: 1 << 20)
    /// Seconds before the child's process group gets SIGTERM; `nil` waits forever.
    public var timeout: Double?
    /// Seconds between SIGTERM and SIGKILL.
    public var killGrace: Double = 0.5
    /// Puts the child in its own process group, so its whole tree can be ended.
    public var newProcessGroup = true
    /// Resource limits for the child.
    public var limits = ResourceLimits()
    /// A cgroup `cgroup.procs` file the child joins before exec.
    public var cgroupProcs: String?
    /// Namespaces the child enters before exec (no network, read-only file system).
    public var isolation: Namespaces?

    /// Creates default options: empty stdin, both outputs captured, no timeout.
    public init() {}
}
