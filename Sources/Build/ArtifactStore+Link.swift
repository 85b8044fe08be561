import Source
import Support

extension ArtifactStore {
    /// The executable's key: every object's key and everything the link step depends on. The
    /// link mode follows from the objects, so their keys stand for it.
    func linkKey(_ objectKeys: [String], _ plan: BuildPlan, _ toolchain: Toolchain) -> String {
        var digest = SHA256()
        digest.update(field: "asmrun-executable-2")
        digest.update(field: plan.format.rawValue)
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

    /// Reads the objects' symbols, decides how to link and links; returns the linker's warnings.
    func link(_ plan: BuildPlan, program: Program, toolchain: Toolchain, builder: Builder) throws -> String {
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
        return try builder.run(command, stage: .link, source: program.path) { output in
            BuildFailure.linkHint(output, driver: driver, objects: objects)
        }
    }
}
