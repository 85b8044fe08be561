import Support

/// How one step, or a run to a breakpoint, of a traced program ended.
enum TraceStop: Sendable, Equatable {
    /// Stopped: signal 5 (SIGTRAP) after a step or at a breakpoint, else the signal it received.
    case stopped(signal: Int32)
    case exited(Int32)
    case signaled(Int32)
}

/// A program stopped before an instruction, stepped one at a time: natively through ptrace
/// (`PtraceTarget`), or through qemu's gdbstub (`RemoteTarget`).
protocol TraceTarget: AnyObject {
    /// rax rbx rcx rdx rsi rdi rbp rsp r8–r15 rip eflags (an elf32 program's in the low halves).
    func registers() throws -> [UInt64]
    /// Runs one instruction, delivering `signal` (0: none) first.
    func step(signal: Int32) throws -> TraceStop
    /// Whether `step` runs a system call instruction and stops right after it.
    var stepsOverSystemCalls: Bool { get }
    /// Runs until the instruction at `address` is reached (stopped before it), or the program ends.
    func run(to address: UInt64?, signal: Int32) throws -> TraceStop
    /// `count` bytes at `address`, or `nil` where they cannot be read.
    func read(_ address: UInt64, count: Int) -> [UInt8]?
    /// Ends the program, if it still runs.
    func kill()
}

/// A target that stopped answering the way ptrace or the gdbstub should.
struct TraceFailure: AsmRunError {
    let reason: String
    let fix: String?
    init(description: String, fix: String? = nil) {
        reason = description
        self.fix = fix ?? "run the program with `asmrun FILE.asm`, or under `asmrun debug FILE.asm`"
    }
    var problem: String { "asmrun trace: " + reason }
}

/// The registers' names, in `TraceTarget.registers()`'s order.
enum TraceRegisters {
    static let names64 = [
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    ]
    static let names32 = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp"]
    static let rax = 0, rcx = 2, rsp = 7, rip = 16, eflags = 17

    /// The flags a learner reads, with their bit in eflags.
    static let flagBits: [(name: String, bit: Int)] = [("CF", 0), ("ZF", 6), ("SF", 7), ("OF", 11), ("DF", 10)]
}
