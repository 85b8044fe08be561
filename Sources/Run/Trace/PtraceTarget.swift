import CAsmRunTrace
import Glibc

/// A program started under ptrace, on an x86_64 kernel: single steps, registers, and its memory
/// through `/proc/PID/mem` (which also writes the breakpoints, into read-only code).
final class PtraceTarget: TraceTarget {
    let pid: pid_t
    private let memory: Int32
    private var ended = false

    /// Starts `executable` with `argv0` and `arguments` and asmrun's environment, its stdio
    /// asmrun's, stopped before its first instruction.
    init(executable: String, argv0: String, arguments: [String]) throws {
        let argv = ([argv0] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = asmrun_trace_start(executable, argv, environ)
        guard started > 0 else {
            // The child exits 127 when the kernel (or a container's seccomp profile) refuses
            // PTRACE_TRACEME, or when exec fails.
            throw TraceFailure(
                description: "the program did not start under ptrace (\(String(cString: strerror(-started))))",
                fix: "where ptrace is refused, trace through qemu's gdbstub instead: --runner qemu")
        }
        pid = started
        memory = open("/proc/\(started)/mem", O_RDWR | O_CLOEXEC)
        guard memory >= 0 else {
            asmrun_trace_kill(started)
            throw TraceFailure(description: "could not open the program's memory (/proc/\(started)/mem)")
        }
    }

    deinit {
        kill()
        close(memory)
    }

    func registers() throws -> [UInt64] {
        var values = [UInt64](repeating: 0, count: Int(ASMRUN_TRACE_REGISTERS))
        let status = asmrun_trace_registers(pid, &values)
        guard status == 0 else { throw TraceFailure(description: "ptrace could not read the registers (errno \(-status))") }
        return values
    }

    var stepsOverSystemCalls: Bool { true }

    func step(signal: Int32) throws -> TraceStop {
        try stop(asmrun_trace_step(pid, signal))
    }

    func run(to address: UInt64?, signal: Int32) throws -> TraceStop {
        guard let address, let original = read(address, count: 1) else { return try stop(asmrun_trace_continue(pid, signal)) }
        guard write(address, [0xcc]) else {
            throw TraceFailure(description: "could not set a breakpoint at 0x\(String(address, radix: 16))")
        }
        let result = try stop(asmrun_trace_continue(pid, signal))
        guard case .stopped = result else { return result }
        _ = write(address, original)
        if result == .stopped(signal: SIGTRAP), try registers()[TraceRegisters.rip] == address &+ 1 {
            _ = asmrun_trace_set_pc(pid, address)
        }
        return result
    }

    func read(_ address: UInt64, count: Int) -> [UInt8]? {
        guard address <= UInt64(Int64.max) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(memory, $0.baseAddress, count, off_t(address)) }
        return got == count ? bytes : nil
    }

    func kill() {
        guard !ended else { return }
        ended = true
        asmrun_trace_kill(pid)
    }

    private func write(_ address: UInt64, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { pwrite(memory, $0.baseAddress, bytes.count, off_t(address)) } == bytes.count
    }

    private func stop(_ stop: asmrun_trace_stop) throws -> TraceStop {
        switch stop.kind {
        case 0: return .stopped(signal: stop.value)
        case 1:
            ended = true
            return .exited(stop.value)
        case 2:
            ended = true
            return .signaled(stop.value)
        default: throw TraceFailure(description: "ptrace failed: \(String(cString: strerror(stop.value)))")
        }
    }
}
