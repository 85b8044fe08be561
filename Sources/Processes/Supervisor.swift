import CAsmRunSpawn
import Glibc
import Support

/// Watches one child with a single `poll` loop: drains stdout and stderr to EOF,
/// enforces the deadline (SIGTERM, grace, SIGKILL to the group) and reaps it through a pidfd.
struct Supervisor {
    private enum Phase { case running, terminating, killed }

    let pid: pid_t
    let options: LaunchOptions
    var pipes: ChildPipes
    private let start: Double
    private var pidfd: Int32
    /// Standard output and standard error, in that order (mutated in place, never copied).
    private var captures = [Capture(), Capture()]
    private var termination: Termination?
    private var phase = Phase.running
    private var deadline: Double?
    private var timedOut = false
    private var limitExceeded = false
    private var drainDeadline: Double?
    private var leftovers = 0
    /// A warden's end report came: the case's every process was reaped before it, so all they
    /// wrote is in the pipes, whose end (the warden's copies closing) is not waited for.
    private var reported = false
    /// A child with nothing to read and no interrupt to hand over: waited for in `waitid`, its
    /// deadline (with this ticket, if it has one) kept by `Deadlines`.
    private var waitsInWaitid = false
    private var ticket: Int?

    /// How long pipes may stay open after the child exited (held by an escaped grandchild).
    private static let drainGrace = 0.25

    init(pid: pid_t, options: LaunchOptions, pipes: ChildPipes, start: Double) {
        self.pid = pid
        self.options = options
        self.pipes = pipes
        self.start = start
        deadline = options.timeout.map { start + $0 }
        if options.warden == nil && pipes.stdoutReader < 0 && pipes.stderrReader < 0 && pipes.statusReader < 0
            && InterruptMonitor.waitDescriptor < 0
        {
            ticket = deadline.flatMap { Deadlines.shared.watch(pid, group: options.newProcessGroup, due: $0, grace: options.killGrace) }
            waitsInWaitid = deadline == nil || ticket != nil
        }
        // A warden's case ends with its report, or with EOF on the status pipe when the warden
        // itself ended (it held the pipe's last write end): no pidfd to watch.
        pidfd = options.warden == nil && !waitsInWaitid ? asmrun_pidfd_open(pid) : -1
        if options.warden != nil { _ = fcntl(pipes.statusReader, F_SETFL, O_NONBLOCK) }
        if case .forward(_, let filter) = options.stdout { captures[0].filter = filter }
        if case .forward(_, let filter) = options.stderr { captures[1].filter = filter }
    }

    mutating func run() -> ProcessResult {
        if waitsInWaitid { return awaitExit() }
        defer { ChildPipes.close(&pidfd) }
        // Not zeroed: filling 64 KiB with zeros for every child was a tenth of asmrun's
        // instructions in a warm suite (callgrind); only what `read` wrote is ever looked at.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { buffer.deallocate() }
        // Before the first poll the child has only just started: its pidfd or status pipe, in the
        // poll set, says when there is something to reap (without either, every pass looks).
        var polled = pidfd < 0 && options.warden == nil
        while true {
            if termination == nil && polled { reapIfExited() }
            if termination != nil {
                if reported || (pipes.stdoutReader < 0 && pipes.stderrReader < 0) { break }
                if drainDeadline == nil { drainDeadline = monotonicSeconds() + Self.drainGrace }
            }
            let now = monotonicSeconds()
            if let drainDeadline, now >= drainDeadline { break }
            enforceDeadline(now: now)
            var fds: [pollfd] = []
            if pipes.stdoutReader >= 0 { fds.append(pollfd(fd: pipes.stdoutReader, events: Int16(POLLIN), revents: 0)) }
            if pipes.stderrReader >= 0 { fds.append(pollfd(fd: pipes.stderrReader, events: Int16(POLLIN), revents: 0)) }
            if termination == nil && pidfd >= 0 { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            if termination == nil && options.warden != nil && pipes.statusReader >= 0 {
                fds.append(pollfd(fd: pipes.statusReader, events: Int16(POLLIN), revents: 0))
            }
            // Ctrl-C for a run with no thread of its own to read it (`InterruptMonitor.Delivery`).
            let interrupts = termination == nil ? InterruptMonitor.waitDescriptor : -1
            if interrupts >= 0 { fds.append(pollfd(fd: interrupts, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), pollTimeout(now: now))
            polled = true
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == pipes.stdoutReader {
                    pipes.stdoutReader = read(pipes.stdoutReader, stream: 0, buffer: buffer)
                } else if entry.fd == pipes.stderrReader {
                    pipes.stderrReader = read(pipes.stderrReader, stream: 1, buffer: buffer)
                } else if entry.fd == interrupts {
                    InterruptMonitor.deliverPending()
                }
            }
        }
        drainReadyData(buffer)
        if termination == nil { reap(blocking: true) }
        return finish()
    }

    /// The child's exit, seen without reaping it; then its ticket released (no signal can
    /// reach its pid once it is reaped) and the child reaped.
    private mutating func awaitExit() -> ProcessResult {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        if let ticket { timedOut = Deadlines.shared.release(ticket) }
        reap(blocking: true)
        return finish()
    }

    private mutating func finish() -> ProcessResult {
        readOutputFile()
        flushForwarded()
        return ProcessResult(
            termination: timedOut ? .timedOut : termination ?? .signaled(SIGKILL),
            stdout: captures[0].bytes, stderr: captures[1].bytes, outputLimitExceeded: limitExceeded,
            duration: monotonicSeconds() - start, leftovers: leftovers)
    }

    /// Reads whatever is already in the pipes without waiting (what FIONREAD counts): output the
    /// program wrote before it exited is never lost, even when this thread was descheduled past
    /// the drain deadline. Only a descendant that keeps a pipe open can still be writing, and it
    /// is not waited for. After a warden's report the pipes hold everything: as many reads as the
    /// capture's limit takes, and two more to see it exceeded.
    private mutating func drainReadyData(_ buffer: UnsafeMutableRawBufferPointer) {
        for which in 0..<2 {
            var fd = which == 0 ? pipes.stdoutReader : pipes.stderrReader
            var reads = 32
            if reported, case .capture(let limit) = which == 0 ? options.stdout : options.stderr {
                reads = max(reads, limit / buffer.count + 2)
            }
            while fd >= 0 && reads > 0 && asmrun_readable_bytes(fd) > 0 {
                fd = read(fd, stream: which, buffer: buffer)
                reads -= 1
            }
            if which == 0 { pipes.stdoutReader = fd } else { pipes.stderrReader = fd }
        }
    }

    /// What an `outputToFile` child wrote to its file, up to the stdout capture's limit.
    private mutating func readOutputFile() {
        var info = stat()
        guard pipes.outputFile >= 0, fstat(pipes.outputFile, &info) == 0, info.st_size > 0 else { return }
        guard case .capture(let limit) = options.stdout else { return }
        let count = min(Int(info.st_size), limit)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(pipes.outputFile, $0.baseAddress, count, 0) }
        captures[0].bytes = Array(bytes.prefix(max(0, got)))
        if Int(info.st_size) > limit { limitExceeded = true }
    }

    private func pollTimeout(now: Double) -> Int32 {
        var wait = Double.infinity
        if let deadline, termination == nil { wait = min(wait, deadline - now) }
        if let drainDeadline { wait = min(wait, drainDeadline - now) }
        if pidfd < 0 && termination == nil && options.warden == nil { wait = min(wait, 0.005) }
        if wait == .infinity { return -1 }
        return Int32(max(0, min(wait * 1000 + 1, 86_400_000)))
    }

    private mutating func enforceDeadline(now: Double) {
        guard termination == nil, let current = deadline, now >= current else { return }
        switch phase {
        case .running:
            timedOut = true
            signal(SIGTERM)
            phase = .terminating
            deadline = now + options.killGrace
        case .terminating:
            signal(SIGKILL)
            phase = .killed
            deadline = nil
        case .killed:
            deadline = nil
        }
    }

    private func signal(_ signal: Int32) { Self.send(signal, to: pid, group: options.newProcessGroup) }

    /// `signal` to the child's group (and to the child, should it have left it), or to the child.
    static func send(_ signal: Int32, to pid: pid_t, group: Bool) {
        _ = kill(group ? -pid : pid, signal)
        if group { _ = kill(pid, signal) }
    }

    private mutating func reapIfExited() { reap(blocking: false) }

    private mutating func reap(blocking: Bool) {
        if let warden = options.warden {
            awaitServedCase(warden, blocking: blocking)
            return
        }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        } while result < 0 && errno == EINTR
        guard result == pid else { return }
        termination = Termination(waitStatus: status)
        readCaseReport()
        // Whatever the program left running in its group ends with it: those now asmrun's (it
        // is their subreaper) are reaped, so none is still there when the result is.
        if options.newProcessGroup && kill(-pid, SIGKILL) == 0 {
            while waitpid(-pid, nil, 0) > 0 || errno == EINTR {}
        }
    }

    /// A case a warden runs ends with the warden's report; the warden ends only when the case's
    /// group is killed (the timeout, the output limit, an interrupt), and then the report is
    /// missing: the status pipe reads EOF, and the warden is reaped here.
    private mutating func awaitServedCase(_ warden: Warden, blocking: Bool) {
        while termination == nil {
            var report = asmrun_case_report()
            let got = withUnsafeMutableBytes(of: &report) { Glibc.read(pipes.statusReader, $0.baseAddress, $0.count) }
            if got == MemoryLayout<asmrun_case_report>.size {
                termination = Termination(waitStatus: report.wait_status)
                leftovers = Int(report.leftovers)
                reported = true
            } else if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) {
                var status: Int32 = 0
                var result: pid_t
                repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
                termination = result == pid ? Termination(waitStatus: status) : .signaled(SIGKILL)
                warden.reapedElsewhere()
            } else if blocking {
                var fds = [pollfd(fd: pipes.statusReader, events: Int16(POLLIN), revents: 0)]
                _ = poll(&fds, 1, -1)
            } else {
                return
            }
        }
    }

    /// With namespaces of the case's own, `pid` is the case's init: the program's status and its
    /// leftovers are in the init's last report (missing when the init itself was killed).
    private mutating func readCaseReport() {
        guard pipes.statusReader >= 0 else { return }
        var report = asmrun_case_report()
        let got = withUnsafeMutableBytes(of: &report) { Glibc.read(pipes.statusReader, $0.baseAddress, $0.count) }
        guard got == MemoryLayout<asmrun_case_report>.size else { return }
        termination = Termination(waitStatus: report.wait_status)
        leftovers = Int(report.leftovers)
    }

    /// Reads one chunk of `stream` (0 stdout, 1 stderr); returns the descriptor, or -1 once it
    /// reached EOF and was closed.
    private mutating func read(_ fd: Int32, stream: Int, buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        let sink = stream == 0 ? options.stdout : options.stderr
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return fd }
        guard count > 0 else {
            var closing = fd
            ChildPipes.close(&closing)
            return -1
        }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<max(0, count)])
        switch sink {
        case .inherit: break
        case .capture(let limit):
            let room = max(0, limit - captures[stream].bytes.count)
            if room > 0 { captures[stream].bytes += chunk.prefix(room) }
            if count > room && !limitExceeded {
                limitExceeded = true
                signal(SIGKILL)
                phase = .killed
            }
        case .forward(let target, _):
            captures[stream].forward(Array(chunk), to: target)
        }
        return fd
    }

    private mutating func flushForwarded() {
        if case .forward(let target, _) = options.stdout { captures[0].finish(to: target) }
        if case .forward(let target, _) = options.stderr { captures[1].finish(to: target) }
    }
}

/// The bytes kept of one stream, or the filter state of a forwarded one.
private struct Capture {
    var bytes: [UInt8] = []
    var filter: LineFilter?
    var state = LineFilterState()

    mutating func forward(_ chunk: [UInt8], to fd: Int32) {
        writeAll(filter.map { state.feed(chunk, filter: $0) } ?? chunk, to: fd)
    }

    mutating func finish(to fd: Int32) {
        writeAll(state.finish(), to: fd)
    }
}
