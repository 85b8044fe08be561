/// Per-child resource limits; `nil` leaves a limit as asmrun has it. Core dumps are always off.
public struct ResourceLimits: Sendable, Equatable, Codable {
    /// RLIMIT_AS in bytes.
    public var addressSpace: Int?
    /// RLIMIT_FSIZE in bytes.
    public var fileSize: Int?
    /// RLIMIT_CPU in seconds.
    public var cpuSeconds: Int?
    /// RLIMIT_NPROC (ignored by the kernel for root).
    public var processes: Int?
    /// RLIMIT_NOFILE.
    public var openFiles: Int?

    /// Creates limits; every limit defaults to unchanged.
    public init(
        addressSpace: Int? = nil, fileSize: Int? = nil, cpuSeconds: Int? = nil,
        processes: Int? = nil, openFiles: Int? = nil
    ) {
        self.addressSpace = addressSpace
        self.fileSize = fileSize
        self.cpuSeconds = cpuSeconds
        self.processes = processes
        self.openFiles = openFiles
    }
}

/// Descriptors of namespaces prepared by `Isolation`, entered by each child.
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

/// Drops whole lines that start with a prefix while copying a stream (qemu's own crash line).
public struct LineFilter: Sendable, Equatable {
    /// Lines beginning with this are dropped.
    public var droppedPrefix: [UInt8]

    /// Creates a filter.
    public init(droppingLinesStartingWith prefix: String) {
        droppedPrefix = Array(prefix.utf8)
    }

    /// Removes the matching lines from a complete capture.
    public func apply(to bytes: [UInt8]) -> [UInt8] {
        var state = LineFilterState()
        return state.feed(bytes, filter: self) + state.finish()
    }
}

/// The streaming side of a `LineFilter`: holds back a partial line only while it may still match.
struct LineFilterState {
    private var pending: [UInt8] = []
    private var dropping = false

    mutating func feed(_ chunk: [UInt8], filter: LineFilter) -> [UInt8] {
        var output: [UInt8] = []
        for byte in chunk {
            if dropping {
                if byte == 0x0a { dropping = false }
                continue
            }
            pending.append(byte)
            if byte == 0x0a {
                output += pending
                pending.removeAll(keepingCapacity: true)
            } else if pending.count == filter.droppedPrefix.count && pending == filter.droppedPrefix {
                pending.removeAll(keepingCapacity: true)
                dropping = true
            } else if !filter.droppedPrefix.starts(with: pending) {
                output += pending
                pending.removeAll(keepingCapacity: true)
            }
        }
        return output
    }

    mutating func finish() -> [UInt8] {
        defer { pending.removeAll() }
        return pending
    }
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

/// What a finished child did.
public struct ProcessResult: Sendable, Equatable {
    /// How it ended.
    public var termination: Termination
    /// Captured standard output (empty unless captured).
    public var stdout: [UInt8]
    /// Captured standard error (empty unless captured).
    public var stderr: [UInt8]
    /// A captured stream passed its limit and the child was ended.
    public var outputLimitExceeded: Bool
    /// Wall time from spawn to reaping, in seconds.
    public var duration: Double

    /// Creates a result.
    public init(
        termination: Termination, stdout: [UInt8] = [], stderr: [UInt8] = [],
        outputLimitExceeded: Bool = false, duration: Double = 0
    ) {
        self.termination = termination
        self.stdout = stdout
        self.stderr = stderr
        self.outputLimitExceeded = outputLimitExceeded
        self.duration = duration
    }
}
