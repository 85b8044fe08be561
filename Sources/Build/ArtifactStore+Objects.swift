import Glibc
import Source
import Support

/// A compiled (or cached) object: its full key (`nil`: not to be cached), what the tool printed,
/// and the inputs its key does not name, for the executable's entry to be checked against too.
struct ObtainedObject {
    var key: String?
    var warnings: String
    var inputs: [BuildInput]
}

extension ArtifactStore {
    /// The cache key of one compile step: the tool, its flags (with scratch paths neutral), the
    /// environment it reads, the source's bytes and, for assembly, every file asmrun's scan
    /// finds it includes and every variable they read with `%!NAME`; for C, the files its last
    /// compile listed, as long as they are unchanged. `nil` when that list is not known or the
    /// output cannot be cached (it reads the clock, or a variable whose name is computed).
    func compileKey(_ step: CompileStep, program: Program) -> String? {
        var digest = baseDigest(step, program: program)
        switch step.language {
        case .assembly:
            guard let source = program.assembly.first(where: { $0.path == step.source }) else { return nil }
            let inputs = program.inputs(of: source)
            guard inputs.cacheable else { return nil }
            for dependency in program.dependencies[source.path] ?? [] {
                digest.update(field: dependency.name)
                digest.update(field: dependency.path ?? "<missing>")
                digest.update(field: dependency.digest ?? "<unreadable>")
            }
            for name in inputs.environmentNames {
                digest.update(field: name)
                digest.update(field: BuildInput.valueDigest(environment[name]))
            }
        case .c:
            guard let root, let manifest = currentManifest(step, program: program, root: root) else { return nil }
            digest.update(field: manifest)
        }
        return digest.hexDigest()
    }

    /// Compiles `step` unless its object is cached and its recorded inputs still hold; returns
    /// its full key, what the tool printed and those inputs. Objects are stored only when
    /// `storing`: a one-source program's executable entry is all a warm run reads, and each entry
    /// is an inode a cold run pays for.
    func obtainObject(
        _ step: CompileStep, key: String?, program: Program, builder: Builder, storing: Bool
    ) throws -> ObtainedObject {
        if let root, let key, let entry = CacheEntry(path: root + "/objects/" + key).read(),
            let inputs = BuildInput.inputs(of: entry.inputs), inputs.allSatisfy({ $0.holds(environment: environment) }),
            FileCopy.write(entry.payload, to: step.object, mode: 0o644)
        {
            builder.trace?(
                "(cached \(key.prefix(12))) \(step.source): the object compiled earlier from the same source, includes and flags")
            return ObtainedObject(key: key, warnings: entry.warnings, inputs: inputs)
        }
        let stage: BuildFailure.Stage = step.language == .assembly ? .assemble : .compile
        let source = step.source
        let hint: (String) -> String?
        if step.language == .assembly {
            hint = { output in BuildFailure.foreignHint(source) ?? BuildFailure.assemblyHint(output) }
        } else {
            hint = BuildFailure.compileHint
        }
        let warnings = try builder.run(step.command, stage: stage, source: step.source, hint: hint)
        try checkUnchanged(step, program: program)
        guard let root else { return ObtainedObject(key: nil, warnings: warnings, inputs: []) }
        var object = ObtainedObject(key: key, warnings: warnings, inputs: [])
        switch step.language {
        case .assembly:
            guard let inputs = try unnamedInputs(step, program: program, builder: builder) else {
                return ObtainedObject(key: nil, warnings: warnings, inputs: [])
            }
            object.inputs = inputs
        case .c:
            var digest = baseDigest(step, program: program)
            guard let manifest = writeManifest(step, program: program, root: root) else { return object }
            digest.update(field: manifest)
            object.key = digest.hexDigest()
        }
        // Read only to be stored: the link reads it again for its symbols anyway.
        if let key = object.key, storing, let bytes = try? Files.read(step.object) {
            store(bytes, warnings: warnings, inputs: BuildInput.record(object.inputs), key: key, root: root)
        }
        return object
    }

    /// The tool, its identity, its flags (the scratch paths that change every run neutral), the
    /// environment variables it reads (`BuildPlan.environment`) and the source's bytes as they
    /// were read.
    func baseDigest(_ step: CompileStep, program: Program) -> SHA256 {
        var digest = SHA256()
        digest.update(field: "asmrun-object-2")
        digest.update(field: step.language.rawValue)
        digest.update(field: step.command.executable)
        digest.update(field: identity(of: step.command.executable))
        for argument in step.command.arguments {
            if argument == step.object || argument == step.dependencyFile {
                digest.update(field: argument == step.object ? "@object" : "@deps")
            } else if argument.hasPrefix(scratch) {
                // A Markdown block's code, written to this run's scratch folder under a name of its own.
                digest.update(field: "@scratch" + argument.dropFirst(scratch.count))
            } else {
                digest.update(field: argument)
            }
        }
        for name in BuildPlan.environment(of: step.language) {
            digest.update(field: name)
            digest.update(field: BuildInput.valueDigest(environment[name]))
        }
        digest.update(field: Self.digest(of: step, in: program) ?? "<unread>")
        return digest
    }

    /// The digest of the source's bytes as the program read them.
    private static func digest(of step: CompileStep, in program: Program) -> String? {
        program.assembly.first { $0.path == step.source }?.digest ?? program.cSources.first { $0.path == step.source }?.digest
    }

    /// A source saved while it was being built: the object is the new text's, the key the old's.
    /// A settled snapshot of the file that still describes it spares reading it again.
    private func checkUnchanged(_ step: CompileStep, program: Program) throws {
        if program.assembly.first(where: { $0.path == step.source })?.snapshot?.stillDescribes(step.source) == true { return }
        guard let before = Self.digest(of: step, in: program), (try? Files.digest(step.source)) != before else { return }
        throw FileError(
            path: step.source, problem: "changed while it was being built", fix: "run asmrun again once it is saved")
    }
}
