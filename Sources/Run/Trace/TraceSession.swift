import Build
import Processes
import Support

/// `asmrun trace`: the program run one instruction at a time with the terminal's stdio,
/// natively through ptrace, or under qemu through its gdbstub (any host, ARM included).
package struct TraceSession: Sendable {
    let launcher: any ProcessLaunching
    let objdump: String

    /// The step bound's range and default.
    package static let stepRange = 1...1_000_000
    package static let defaultSteps = 10_000

    package init(launcher: any ProcessLaunching, toolchain: Toolchain) throws(ToolError) {
        self.launcher = launcher
        objdump = try toolchain.objdump(purpose: "needed to map instructions to source lines for asmrun trace")
    }

    /// How the trace ended, and how many instructions it stepped.
    package struct Outcome: Sendable, Equatable {
        package var end: Tracer.End
        package var steps: Int
    }

    /// Traces `run` (whose `program.symbols`, or executable, has the line tables) for at most
    /// `limit` instructions, handing each entry to `emit` as it is complete; qemu's socket goes
    /// in `folder`.
    package func trace(_ run: CrashProbe.Run, limit: Int, folder: String, emit: @escaping (TraceEntry) -> Void) throws -> Outcome {
        let table = try LineTable.load(
            executable: run.program.symbolFile, sources: run.sources, objdump: objdump, launcher: launcher)
        guard !table.ranges.isEmpty else {
            throw TraceFailure(description: "the program's debug build has no line table for its own sources")
        }
        let bytes = try Files.read(run.executable)
        let writable = Self.writable(bytes)
        let thirtyTwoBit = run.format == .elf32
        func follow(_ target: any TraceTarget) throws -> Outcome {
            let tracer = Tracer(target: target, table: table, thirtyTwoBit: thirtyTwoBit, writable: writable, emit: emit)
            let end = try tracer.run(limit: limit)
            return Outcome(end: end, steps: tracer.steps)
        }
        switch run.runner.kind {
        case .native:
            return try TerminalSignals.ignoringInterrupts {
                try follow(try PtraceTarget(executable: run.executable, argv0: run.argv0, arguments: run.arguments))
            }
        case .qemu:
            let socket = folder + "/gdb"
            let qemu = run.runner.command(executable: run.executable, argv0: run.argv0, arguments: run.arguments)
            var launch = LaunchOptions()
            launch.stdin = .inherit
            launch.stdout = .inherit
            launch.stderr = run.runner.noiseFilter.map { .forward(to: 2, filter: $0) } ?? .inherit
            launch.newProcessGroup = false
            let children = launcher.children
            let outcome = TerminalSignals.ignoringInterrupts {
                Gdbstub.serve(
                    qemu, options: launch, socket: socket, launcher: launcher,
                    end: {
                        children.endAll(); children.resume()
                    }
                ) {
                    Result { try follow(try RemoteTarget(socket: socket, thirtyTwoBit: thirtyTwoBit)) }
                }
            }
            guard let outcome else {
                throw RunnerUnavailable(
                    runner: run.runner.name, reason: "qemu did not open its gdbstub", fix: "check that `\(qemu)` runs the program")
            }
            return try outcome.get()
        case .binfmt, .custom:
            throw RunnerUnavailable(
                runner: run.runner.name, reason: "asmrun trace works under the native and qemu runners",
                fix: "use --runner native, or --runner qemu (through qemu's gdbstub)")
        }
    }

    /// The writable loaded segments (`.data`, `.bss`, the GOT), at most 64 KiB in all.
    static func writable(_ bytes: [UInt8]) -> [Range<UInt64>] {
        var budget: UInt64 = 64 << 10
        var ranges: [Range<UInt64>] = []
        for load in ElfSegments(bytes)?.loads ?? [] where load.flags & 2 != 0 && load.memorySize > 0 {
            let size = min(load.memorySize, budget)
            ranges.append(load.address..<(load.address + size))
            budget -= size
        }
        return ranges
    }
}
