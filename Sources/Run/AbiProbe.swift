import Build
import Processes
import Support

/// The ABI checks of a run that failed (`AbiCheck`): the same run repeated under gdb, as the
/// crash report repeats a crash, with a breakpoint at each entry of a global function of the
/// assembly, each `call` and `ret` in it and the return from each call into C; each stop prints
/// the stack pointer and the callee-saved registers and goes on. Natively gdb runs the program;
/// under qemu it connects to qemu's gdbstub. A run that passes is not repeated, so it pays nothing.
package struct AbiProbe: Sendable {
    let crashProbe: CrashProbe
    let objdump: String

    package init(crashProbe: CrashProbe, toolchain: Toolchain) throws(ToolError) {
        self.crashProbe = crashProbe
        objdump = try toolchain.objdump(purpose: "needed to find the calls and returns the ABI checks stop at")
    }

    /// The probe, or `nil` without gdb or objdump (the checks are then silent).
    package static func make(launcher: any ProcessLaunching, toolchain: Toolchain) -> AbiProbe? {
        guard let crashProbe = try? CrashProbe(launcher: launcher, toolchain: toolchain) else { return nil }
        return try? AbiProbe(crashProbe: crashProbe, toolchain: toolchain)
    }

    /// The assembly sources among a program's files (not its C, objects or archives).
    static func assembly(_ sources: [String]) -> [String] {
        sources.filter { path in !["c", "h", "o", "a"].contains(PathName.lastComponent(of: path).split(separator: ".").last ?? "") }
    }

    /// The findings of `run` repeated with `options` in `workingDirectory`, qemu's socket and
    /// gdb's script in `folder`; none when the program has no site or gdb cannot follow it.
    package func check(_ run: CrashProbe.Run, in folder: String, workingDirectory: String?, options: LaunchOptions) -> [String] {
        let sources = Self.assembly(run.sources)
        guard !sources.isEmpty, let text = disassembly(run.program.symbolFile) else { return [] }
        var check = AbiCheck(sites: AbiSites(objdump: text, sources: sources).sites, thirtyTwoBit: run.format == .elf32)
        check.marker = "@@abi-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        guard !check.sites.isEmpty else { return [] }
        let script = folder + "/.asmrun-abi.gdb"
        // Under qemu the program waits at its entry point, where `continue` would not stop.
        var entry: UInt64?
        if case .qemu = run.runner.kind { entry = (try? Files.read(run.executable)).flatMap(ElfSymbols.entryPoint) }
        let commands = check.script + (entry.map(check.stopAt(entry:)) ?? "")
        guard (try? AtomicFile.write(Array(commands.utf8), to: script)) != nil else { return [] }
        var options = options
        options.stdout = .capture(limit: 16 << 20)
        options.stderr = .capture(limit: 1 << 16)
        let transcript = crashProbe.transcript(
            run, before: ["source " + GdbTranscript.quoted(script)], after: [], folder: folder, workingDirectory: workingDirectory,
            options: options)
        return transcript.map { check.findings(check.stops(in: $0)) } ?? []
    }

    /// `objdump -t -d -l` of the debug build, Intel syntax.
    private func disassembly(_ executable: String) -> String? {
        var options = LaunchOptions()
        options.stdout = .capture(limit: 64 << 20)
        options.stderr = .capture(limit: 1 << 16)
        let command = Command(objdump, ["-w", "-t", "-d", "-l", "-M", "intel", "--no-show-raw-insn", executable])
        guard let result = try? crashProbe.launcher.run(command, options: options), result.termination == .exited(0) else { return nil }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
