import Build
import Processes
import Support
import Synchronization

/// The ABI checks of a run that failed (`AbiCheck`): the same run repeated under gdb, as the
/// crash report repeats a crash, with a breakpoint at each entry of a global function of the
/// assembly, each `call` and `ret` in it and the return from each call into C; each stop prints
/// the stack pointer and the callee-saved registers and goes on. Natively gdb runs the program;
/// under qemu it connects to qemu's gdbstub. A run that passes is not repeated, so it pays nothing.
package struct AbiProbe: Sendable {
    let crashProbe: CrashProbe
    let objdump: String
    /// The sites of each build read so far: objdump runs once a build, not once a case or a retry.
    private let known = SiteCache()

    package init(crashProbe: CrashProbe, toolchain: Toolchain) throws(ToolError) {
        self.crashProbe = crashProbe
        objdump = try toolchain.objdump(purpose: "needed to find the calls and returns the ABI checks stop at")
    }

    /// The probe, or the tool that is missing (gdb or objdump): the checks cannot run without it.
    package static func make(crashProbe: Result<CrashProbe, ToolError>, toolchain: Toolchain) -> Result<AbiProbe, ToolError> {
        Result { () throws(ToolError) in try AbiProbe(crashProbe: crashProbe.get(), toolchain: toolchain) }
    }

    /// The one note for a run whose checks could not run: the missing tool and how to install it.
    package static func missingNote(_ missing: ToolError) -> String {
        "no ABI checks: \(missing.tool) not found; \(missing.fix ?? "install it") (`make deps` in asmrun's source tree installs it too)"
    }

    /// The assembly sources among a program's files (not its C, objects or archives).
    static func assembly(_ sources: [String]) -> [String] {
        sources.filter { path in !["c", "h", "o", "a"].contains(PathName.lastComponent(of: path).split(separator: ".").last ?? "") }
    }

    /// The findings of `run` repeated with `options` in `workingDirectory`, qemu's socket and
    /// gdb's script in `folder`; none when the program has no site or gdb cannot follow it.
    package func check(_ run: CrashProbe.Run, in folder: String, workingDirectory: String?, options: LaunchOptions) -> [String] {
        let sources = Self.assembly(run.sources)
        guard !sources.isEmpty, let sites = sites(of: run.program, sources: sources), !sites.isEmpty else { return [] }
        var check = AbiCheck(sites: sites, thirtyTwoBit: run.format == .elf32)
        check.marker = "@@abi-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
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

    /// The sites of `program`, read once for each build: by the identity of the executable that
    /// runs, which its debug build's addresses match, and the file objdump reads.
    private func sites(of program: CrashProbe.Program, sources: [String]) -> [AbiSites.Site]? {
        guard let key = Self.key(of: program, sources: sources) else { return read(program, sources: sources) }
        return known.sites(for: key) { read(program, sources: sources) }
    }

    /// The executable's path and identity (`FileSnapshot.identity`), the file objdump
    /// reads (the debug build, or the executable itself when there is none: a case whose debug
    /// build was made does not get the sites read without it), and the sources; `nil` when the
    /// executable cannot be read. The debug build is named by its path, not its identity: cases
    /// running at once may each put the cache's entry in place, the same build each time.
    static func key(of program: CrashProbe.Program, sources: [String]) -> [String]? {
        guard let identity = FileSnapshot.identity(of: program.executable) else { return nil }
        return [program.executable, identity, program.symbols.map { "debug build " + $0 } ?? "no debug build"] + sources
    }

    private func read(_ program: CrashProbe.Program, sources: [String]) -> [AbiSites.Site]? {
        disassembly(program.symbolFile).map { AbiSites(objdump: $0, sources: sources).sites }
    }

    /// `objdump -t -d -l` of the debug build, Intel syntax.
    private func disassembly(_ executable: String) -> String? {
        var options = LaunchOptions()
        options.stdout = .capture(limit: 64 << 20)
        options.stderr = .capture(limit: 1 << 16)
        // A build's objdump takes well under a second: one that hangs ends, and the case goes unchecked.
        options.timeout = 60
        let command = Command(objdump, ["-w", "-t", "-d", "-l", "-M", "intel", "--no-show-raw-insn", executable])
        guard let result = try? crashProbe.launcher.run(command, options: options), result.termination == .exited(0) else { return nil }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}

/// The sites read for each build of a run, shared by every copy of its `AbiProbe`; a build's
/// cases running at once wait for the first to read them. A read that failed (objdump could not
/// run) is not kept: the next case reads again.
final class SiteCache: Sendable {
    private final class Entry: Sendable {
        let sites = Mutex<[AbiSites.Site]?>(nil)
    }

    private let entries = Mutex<[[String]: Entry]>([:])

    func sites(for key: [String], read: () -> [AbiSites.Site]?) -> [AbiSites.Site]? {
        let entry = entries.withLock { entries in
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return entry.sites.withLock { sites in
            if let known = sites { return known }
            sites = read()
            return sites
        }
    }
}
