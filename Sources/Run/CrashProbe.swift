import Build
import Processes
import Source
import Support

/// Says where and why a program died by a signal: the same run is repeated under the debugger,
/// so programs that do not crash pay nothing. Natively gdb runs the program itself; under qemu,
/// qemu waits on its gdbstub (a socket in the case folder) and gdb connects to it, which works
/// on ARM hosts too (gdb-multiarch). The program repeated is the one that crashed, the classic
/// build; gdb reads its lines from the DWARF line tables of the same sources' debug build.
package struct CrashProbe: Sendable {
    let launcher: any ProcessLaunching
    let debugger: String

    /// The signals worth a report.
    package static let crashSignals: Set<Int32> = [4, 5, 7, 8, 11]  // SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV

    package init(launcher: any ProcessLaunching, toolchain: Toolchain) throws(ToolError) {
        self.launcher = launcher
        debugger = try toolchain.debugger()
    }

    /// The probe, or the missing debugger (reported beside a crash instead of the report).
    package static func make(launcher: any ProcessLaunching, toolchain: Toolchain) -> Result<CrashProbe, ToolError> {
        Result { () throws(ToolError) in try CrashProbe(launcher: launcher, toolchain: toolchain) }
    }

    /// The built program: what the report reads besides the debugger's answers.
    package struct Program: Sendable {
        package var executable: String
        package var format: ObjectFormat
        /// Its sources, to read the faulting line and to tell its frames from libc's.
        package var sources: [String]
        /// What the build printed (nasm's warnings point at typos).
        package var warnings: String
        /// The debug build whose line tables name the executable's lines (`nil`: the executable's own).
        package var symbols: String?

        package init(executable: String, format: ObjectFormat, sources: [String], warnings: String, symbols: String? = nil) {
            self.executable = executable
            self.format = format
            self.sources = sources
            self.warnings = warnings
            self.symbols = symbols
        }

        /// gdb's commands that load the line tables from `symbols`, before anything runs.
        var symbolCommands: [String] { symbols.map { ["symbol-file " + GdbTranscript.quoted($0)] } ?? [] }

        /// The file gdb reads symbols from when qemu runs the program.
        var symbolFile: String { symbols ?? executable }
    }

    /// How the program ran, for repeating it.
    package struct Run: Sendable {
        package var program: Program
        package var argv0: String
        package var arguments: [String]
        /// The program's environment; `nil` inherits asmrun's.
        package var environment: [String: String]?
        package var runner: Runner
        /// The signal that ended the program: the debugger stops at it alone, not at a signal
        /// the program handled or ignored before it (`nil`: at the first).
        package var signal: Int32?

        package init(program: Program, argv0: String, arguments: [String], environment: [String: String]?, runner: Runner) {
            self.program = program
            self.argv0 = argv0
            self.arguments = arguments
            self.environment = environment
            self.runner = runner
        }

        var executable: String { program.executable }
        var format: ObjectFormat { program.format }
        var sources: [String] { program.sources }
        var warnings: String { program.warnings }
        var symbolCommands: [String] { program.symbolCommands }
    }

    /// Repeats `run` with `options` (its stdin, limits, containment), in `workingDirectory`
    /// (`nil`: asmrun's own), with qemu's gdbstub socket in `folder`; `nil` when the runner cannot
    /// be debugged or the crash did not repeat.
    package func probe(_ run: Run, in folder: String, workingDirectory: String?, options: LaunchOptions) -> CrashReport? {
        var options = options
        options.stdout = .capture(limit: 1 << 20)
        options.stderr = .capture(limit: 1 << 20)
        let bytes = try? Files.read(run.executable)
        let code = bytes.map(ElfSymbols.codeSections) ?? []
        let readOnly = bytes.map(ElfSymbols.readOnlySections) ?? []
        let executableStack = bytes.flatMap(ElfSymbols.executableStack) ?? false
        let script = folder + "/.asmrun-caller.gdb"
        guard
            (try? AtomicFile.write(Array(GdbTranscript.callerScript(code: code, thirtyTwoBit: run.format == .elf32).utf8), to: script))
                != nil
        else { return nil }
        let inspection = ["source " + script] + GdbTranscript.inspection(code: code)
        let before = run.signal.map(GdbTranscript.stoppingOnlyAt) ?? []
        return transcript(run, before: before, after: inspection, folder: folder, workingDirectory: workingDirectory, options: options)
            .flatMap { report(from: GdbTranscript($0), run, code: code, readOnly: readOnly, executableStack: executableStack) }
    }

    /// What gdb printed running `run` with `before` (breakpoints) given before it starts and
    /// `after` once it stopped; `nil` for a runner gdb cannot follow.
    func transcript(
        _ run: Run, before: [String], after: [String], folder: String, workingDirectory: String?, options: LaunchOptions
    ) -> String? {
        switch run.runner.kind {
        case .native: native(run, before, after, workingDirectory, options)
        case .qemu: emulated(run, before, after, folder, workingDirectory, options)
        case .binfmt, .custom: nil
        }
    }

    /// The report from what gdb printed, its headline on the program's own line.
    private func report(from parsed: GdbTranscript, _ run: Run, code: [CodeSection], readOnly: [CodeSection], executableStack: Bool)
        -> CrashReport?
    {
        guard var report = parsed.report(thirtyTwoBit: run.format == .elf32) else { return nil }
        report.program = run.sources.first ?? run.executable
        let own = { (location: FileLocation) in run.sources.first { CrashHints.same($0, location.path) } }
        // After an `int3` the instruction pointer is past it: the trap's line is the byte before.
        if report.signal == 5, let previous = parsed.previous { report.location = previous }
        report.calledFunction = parsed.caller?.function
        report.stackPointerAtCall = parsed.caller?.stackPointer
        if let caller = parsed.caller, !report.frames.contains(where: { $0.location.flatMap(own) != nil }) {
            report.frames = [.init(function: caller.function ?? "??", location: nil), .init(function: "??", location: caller.location)]
        }
        // A data section is not executable: the fault is the jump into it, at the instruction pointer.
        let inData = parsed.section.map { name in !code.contains { $0.name == name } } ?? false
        // Nor is a stack that is not executable, whatever the bytes there would have done.
        let stack = executableStack ? nil : Self.stack(parsed, report)
        let onStack = report.instructionAddress.map { stack?.contains($0) == true } ?? false
        if !parsed.hasSignalInfo, report.signal == 11 || report.signal == 7 {
            report.address =
                inData || onStack || report.instruction == nil
                ? report.instructionAddress : report.instruction.flatMap { OperandAddress.of($0, in: report) }
        }
        // The innermost frame in the program's sources, named as the program names them.
        let innermost = ([report.location] + report.frames.map(\.location)).compactMap { $0 }.first { own($0) != nil }
        report.location = innermost.map { FileLocation(own($0) ?? $0.path, line: $0.line) }
        let past = inData ? nil : report.instructionAddress.flatMap(parsed.pastEnd(of:))
        if report.location == nil, let last = past?.location {
            report.location = FileLocation(own(last) ?? last.path, line: last.line)
            report.ranPastEnd = true
        }
        // Only the program's own sources are quoted: `%line N+0 /etc/shadow` names any file.
        if let location = report.location, let line = location.line, let source = own(location) {
            report.sourceLine = Self.line(line, of: source)
        }
        report.access = Self.access(report)
        let written = report.access == "writing" ? report.address.flatMap { address in readOnly.first { $0.contains(address) } } : nil
        report.hints =
            CrashHints(
                report: report, section: parsed.section, past: past, sources: run.sources, warnings: run.warnings,
                nonExecutableStack: stack, readOnlyWritten: written?.name, qemuCPU: Self.qemuCPU(of: run.runner)
            ).hints
        return report
    }

    /// The `-cpu` model a qemu runner gives (`""`: qemu's default); `nil` for any other runner.
    private static func qemuCPU(of runner: Runner) -> String? {
        guard case .qemu(_, let cpu, _) = runner.kind else { return nil }
        return cpu ?? ""
    }

    /// Where the stack lies: from a little below the stack pointer (frames just left) up to the
    /// file name at its top; qemu-user maps the program's first `mmap` right above it.
    private static func stack(_ parsed: GdbTranscript, _ report: CrashReport) -> Range<UInt64>? {
        guard let top = parsed.stackTop, let pointer = report.register(report.thirtyTwoBit ? "esp" : "rsp"), pointer < top else {
            return nil
        }
        return (pointer > 1 << 20 ? pointer - (1 << 20) : 0)..<top
    }

    private func native(_ run: Run, _ before: [String], _ inspection: [String], _ folder: String?, _ options: LaunchOptions) -> String? {
        var command = Command(
            debugger,
            ["-nx", "-q", "-batch"] + gdb(run.symbolCommands + before + Self.nativeStart + inspection) + ["--args", run.executable]
                + run.arguments)
        command.workingDirectory = folder
        command.environment = run.environment
        return try? String(decoding: launcher.run(command, options: options).stdout, as: UTF8.self)
    }

    private func emulated(
        _ run: Run, _ before: [String], _ inspection: [String], _ folder: String, _ workingDirectory: String?, _ options: LaunchOptions
    ) -> String? {
        var qemu = run.runner.command(
            executable: run.executable, argv0: run.argv0, arguments: run.arguments, environment: run.environment)
        qemu.workingDirectory = workingDirectory
        let socket = folder + "/.asmrun-gdb"
        var command = Command(
            debugger,
            ["-nx", "-q", "-batch"] + gdb(["target remote \(socket)"] + before + ["continue"] + inspection) + [run.program.symbolFile])
        command.workingDirectory = workingDirectory
        var gdbOptions = options
        gdbOptions.stdin = .empty
        // gdb reaches qemu's socket through the run's view, where the case folders are in sight
        // (read-only: a socket is reached all the same), as the case's user; it has no case
        // namespaces of its own, which would hide the other case folders.
        gdbOptions.confinement.caseNamespaces = false
        // qemu ends when gdb kills the program, or at the case's timeout.
        return Gdbstub.serve(qemu, options: options, socket: socket, launcher: launcher, end: {}) {
            try? String(decoding: launcher.run(command, options: gdbOptions).stdout, as: UTF8.self)
        } ?? nil
    }

    /// No script the program carries (`.debug_gdb_scripts`) or names runs, whatever the host's
    /// gdb would auto-load: before gdb reads the executable (`-iex`), then gdb's settings, then
    /// `commands`, each as its own `-ex` (an error in one does not stop the rest).
    private func gdb(_ commands: [String]) -> [String] {
        ["-iex", "set auto-load off"] + (GdbTranscript.settings + commands).flatMap { ["-ex", $0] }
    }

    /// Run the program as it was run: its own arguments, no shell, none of gdb's variables.
    private static let nativeStart = ["set startup-with-shell off", "unset environment LINES", "unset environment COLUMNS", "run"]

    /// Reading, writing or executing, from the fault address and the instruction's operands.
    private static func access(_ report: CrashReport) -> String? {
        guard report.signal == 11 || report.signal == 7 else { return nil }
        let operand = report.instruction.flatMap { OperandAddress.of($0, in: report) }
        // `mov byte [_start], 0x90` writes the address it runs at: the operand says so.
        if let address = report.address, address == report.instructionAddress, operand != address { return "executing" }
        guard let instruction = report.instruction else { return nil }
        return OperandAddress.access(instruction) ?? (report.address == nil ? nil : "executing")
    }

    /// Line `number` of `path`, without its leading blanks kept as they are.
    private static func line(_ number: Int, of path: String) -> String? {
        guard let bytes = try? Files.read(path) else { return nil }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return nil }
        var line = lines[number - 1]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
