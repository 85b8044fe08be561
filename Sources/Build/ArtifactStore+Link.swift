import Source
import Support

extension ArtifactStore {
    /// The executable's key: every object's key and everything the link step depends on. The
    /// link mode follows from the objects, so their keys stand for it.
    func linkKey(_ objectKeys: [String], _ plan: BuildPlan, _ toolchain: Toolchain) -> String {
        var digest = SHA256()
        // The version names asmrun's own link arguments (`LinkDecision.command`), which the key
        // does not list: 2, the classic `ld` and the stack the objects ask for. The entry keeps
        // asmrun's own build warnings too (`SyscallClobberCheck`): the check's version is part of
        // the key, so no entry replays an older check's warnings (or none); so is the
        // alignment check's (`AlignmentCheck`), made on the linked executable.
        digest.update(field: "asmrun-executable-2")
        digest.update(field: SyscallClobberCheck.version)
        digest.update(field: AlignmentCheck.version)
        digest.update(field: plan.format.rawValue)
        digest.update(field: plan.debugInfo ? "debug" : "classic")
        digest.update(field: plan.linkMode.rawValue)
        for key in objectKeys { digest.update(field: key) }
        for flag in plan.linkFlags { digest.update(field: flag) }
        for path in plan.prebuilt {
            digest.update(field: path)
            digest.update(field: (try? Files.read(path)).map { SHA256.hex($0) } ?? "<unreadable>")
        }
        for tool in [try? toolchain.linker(for: plan.format), try? toolchain.compilerDriver(for: plan.format)] {
            digest.update(field: tool ?? "<none>")
            digest.update(field: tool.map(identity) ?? "")
        }
        return digest.hexDigest()
    }

    /// Reads the objects' symbols, decides how to link and links; returns the linker's warnings
    /// and the files it read besides the objects (`--dependency-file`: start files, libraries),
    /// as inputs for the entry's record (`nil`: one could not be recorded).
    func link(_ plan: BuildPlan, program: Program, toolchain: Toolchain, builder: Builder) throws -> (
        warnings: String, inputs: [BuildInput]?
    ) {
        var objects: [(source: String, symbols: ElfSymbols)] = []
        for (path, source) in plan.compiles.map({ ($0.object, $0.source) }) + plan.prebuilt.map({ ($0, $0) }) {
            guard let bytes = try? Files.read(path), let symbols = ElfSymbols(bytes) else {
                throw FileError(path: source, problem: "did not give an ELF object", fix: "name a source, a .o or a .a file")
            }
            if let format = symbols.format, format != plan.format {
                throw FileError(
                    path: source, problem: "is \(format.rawValue) but the program is \(plan.format.rawValue)",
                    fix: "build every part for the same format (`-f \(plan.format.rawValue)`)")
            }
            objects.append((source, symbols))
        }
        let driver = try LinkDecision.decide(plan, objects: objects.map { ($0.source, $0.symbols) }, program: program)
        let stack = LinkDecision.executableStack(notes: objects.map(\.symbols.stackNote), linkFlags: plan.linkFlags)
        let command = try LinkDecision.command(
            driver, plan, objects: plan.compiles.map(\.object), toolchain: toolchain, executableStack: stack)
        let warnings = try builder.run(command, stage: .link, source: program.path) { output in
            BuildFailure.linkHint(output, driver: driver, objects: objects)
        }
        let lost = driver == .cDriverOwnStart ? LinkDecision.lostStdioWarning(program, objects: objects.map(\.symbols)) : nil
        // What the executable itself shows: SSE operands at fixed addresses that are not aligned.
        let misaligned = try alignmentOutput(plan, program: program, toolchain: toolchain, builder: builder)
        return (warnings + (lost.map { $0 + "\n" } ?? "") + misaligned, linkedFiles(plan))
    }

    /// The files the linker listed, but for this build's own objects and the prebuilt ones
    /// (whose bytes the key covers), each once.
    private func linkedFiles(_ plan: BuildPlan) -> [BuildInput]? {
        guard let bytes = try? Files.read(plan.linkDependencies) else { return nil }
        var seen = Set(plan.compiles.map(\.object) + plan.prebuilt)
        var inputs: [BuildInput] = []
        for path in Self.makeDependencies(bytes) where seen.insert(path).inserted {
            guard let input = BuildInput.file(path) else { return nil }
            inputs.append(input)
        }
        return inputs
    }

    /// A link into `staging` that failed for the cache's folder, not for the program: the linker
    /// named the file (it could not create it), or the folder's file system is nearly full (its
    /// message is in the user's language, so no words of it are looked for).
    func refused(_ failure: BuildFailure, staging: String) -> Bool {
        failure.stage == .link
            && (failure.output.contains(staging) || (Files.freeBytes(PathName.directory(of: staging)) ?? 0) < 16 << 20)
    }
}
