import Processes
import Source
import Support

extension ArtifactStore {
    /// The alignment warnings (`AlignmentCheck`) of the executable `plan` just linked, as build
    /// output: kept in its entry with the tools' warnings, so a cache hit replays them and runs
    /// nothing. A program whose sources never name an xmm register is let go after one look at
    /// their bytes; the others pay one objdump of the executable (a few milliseconds), and only a
    /// finding pays for its lines: the debug build (cached too), whose loaded segments must be
    /// the executable's, made with the same check, which reads its line tables (`-l`). Silent
    /// where a tool fails: no line, no warning.
    func alignmentOutput(_ plan: BuildPlan, program: Program, toolchain: Toolchain, builder: Builder) throws -> String {
        let sources = program.assembly.flatMap { [$0.path] + (program.dependencies[$0.path] ?? []).compactMap(\.path) }
        guard WordSearch.anyContains("xmm", paths: sources),
            let objdump = try? toolchain.objdump(purpose: "needed to check SSE operands' alignment")
        else { return "" }
        guard let text = try disassembly(plan.executable, objdump: objdump, lines: plan.debugInfo, builder: builder, program: program)
        else { return "" }
        let findings = AlignmentFindings(objdump: text, sources: sources).findings
        guard !findings.isEmpty else { return "" }
        if plan.debugInfo { return AlignmentCheck.buildOutput(findings, files: sources) }
        var debugProgram = program
        debugProgram.settings.format = plan.format
        guard
            let debug = try? attempt(
                debugProgram, toolchain: toolchain, trace: builder.trace, notes: [], debugInfo: true, flagsApplied: true)
        else { return "" }
        defer { debug.release() }
        // The debug build made the same check with its lines: its warnings are this build's.
        let loads = { (path: String) in (try? Files.read(path)).flatMap(ElfSegments.init)?.loads }
        guard let classic = loads(plan.executable), classic == loads(debug.executable) else { return "" }
        return AlignmentCheck.own(in: debug.warnings)
    }

    /// `objdump -w -t -d [-l] -M intel` of `executable`, run as the build's tools are (contained,
    /// with their limits); `nil` when it fails. An interrupt ends the build.
    private func disassembly(_ executable: String, objdump: String, lines: Bool, builder: Builder, program: Program) throws -> String? {
        let arguments = ["-w", "-t", "-d"] + (lines ? ["-l"] : []) + ["-M", "intel", "--no-show-raw-insn", executable]
        do {
            return try builder.run(Command(objdump, arguments), stage: .link, source: program.path) { _ in nil }
        } catch let interrupted as InterruptedError {
            throw interrupted
        } catch {
            return nil
        }
    }
}
