import Build
import Processes
import Run
import Support

extension RunCommand {
    /// Builds the program as `asmrun FILE.asm` would, with the debug build whose line tables
    /// `asmrun debug` and `asmrun trace` read and a scratch folder (`prefix`), and hands them the
    /// run; 130 when an interrupt stopped the build.
    func withDebugRun(prefix: String, _ body: (CrashProbe.Run, Prepared, String) throws -> Int32) throws -> Int32 {
        guard let prepared = try prepare() else { return ExitStatus.interrupted }
        defer { prepared.close() }
        let folder = try TemporaryDirectory(prefix: prefix, environment: context.environment)
        defer { folder.remove() }
        let symbols = prepared.debugBuild()
        defer { symbols?.release() }
        let run = CrashProbe.Run(
            program: prepared.probeProgram(symbols: symbols), argv0: prepared.program.argv0, arguments: options.programArguments,
            environment: nil, runner: prepared.runner)
        return try body(run, prepared, folder.path)
    }
}

extension RunCommand {
    /// The ABI checks' findings for a run that crashed, repeated under the debugger with its input;
    /// without objdump (or gdb), none and a note naming it.
    func abiFindings(_ prepared: Prepared, input: CallerInput) -> [String] {
        let made = AbiProbe.make(
            crashProbe: CrashProbe.make(launcher: context.launcher, toolchain: prepared.toolchain), toolchain: prepared.toolchain)
        let probe: AbiProbe
        switch made {
        case .success(let made): probe = made
        case .failure(let missing):
            context.diagnostics.note(AbiProbe.missingNote(missing), tagged: true)
            return []
        }
        guard let folder = try? TemporaryDirectory(prefix: "checks", environment: context.environment) else { return [] }
        defer { folder.remove() }
        let replay = input.replay()
        defer { replay.close() }
        var launch = LaunchOptions()
        launch.stdin = replay.source
        launch.timeout = min(prepared.program.settings.timeout ?? 30, 30)
        let symbols = prepared.debugBuild()
        defer { symbols?.release() }
        let run = CrashProbe.Run(
            program: prepared.probeProgram(symbols: symbols), argv0: prepared.program.argv0, arguments: options.programArguments,
            environment: nil, runner: prepared.runner)
        return probe.check(run, in: folder.path, workingDirectory: nil, options: launch)
    }
}
