import Support

extension CaseRunner {
    /// The ABI checks' findings for a case that failed, run again under the debugger (`AbiProbe`);
    /// none without the probe or when the runner cannot be debugged.
    package func checkAbi(
        _ input: CaseInput, of program: CrashProbe.Program, stem: String, argv0: String? = nil, runner: Runner, limits: CaseLimits
    ) -> [String] {
        guard let abiProbe else { return [] }
        switch runner.kind {
        case .native, .qemu: break
        case .binfmt, .custom: return []
        }
        let findings = try? repeating(input, of: program, stem: stem, argv0: argv0, runner: runner, limits: limits) {
            run, folder, options in
            abiProbe.check(run, in: folder, workingDirectory: folder, options: options)
        }
        return findings ?? []
    }
}
