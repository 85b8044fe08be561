import Build
import Support

extension CaseRunner {
    /// The probe that checks a case run by `runner`: none with `--no-checks` or for a runner gdb
    /// cannot follow; none either without gdb or objdump, which `abiUnavailable` is told.
    package func abiProbe(for runner: Runner) -> AbiProbe? {
        guard let abiProbe else { return nil }
        switch runner.kind {
        case .native, .qemu: break
        case .binfmt, .custom: return nil
        }
        switch abiProbe {
        case .success(let probe): return probe
        case .failure(let missing):
            abiUnavailable?(missing)
            return nil
        }
    }

    /// The ABI checks' findings for a case that failed, run again under the debugger by `probe`.
    package func checkAbi(
        _ input: CaseInput, of program: CrashProbe.Program, probe: AbiProbe, stem: String, argv0: String? = nil, runner: Runner,
        limits: CaseLimits
    ) -> [String] {
        let findings = try? repeating(input, of: program, stem: stem, argv0: argv0, runner: runner, limits: limits) {
            run, folder, options in
            probe.check(run, in: folder, workingDirectory: folder, options: options)
        }
        return findings ?? []
    }
}
