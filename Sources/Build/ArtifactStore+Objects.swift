import Glibc
import Source
import Support

extension ArtifactStore {
    /// The cache key of one compile step: the tool, its flags (with scratch paths neutral), the
    /// source's bytes and, for assembly, every file it includes; for C, the headers its last
    /// compile listed, as long as they are unchanged. `nil` when that list is not known.
    func compileKey(_ step: CompileStep, program: Program) -> String? {
        var digest = baseDigest(step, program: program)
        switch step.language {
        case .assembly:
            guard let source = program.assembly.first(where: { $0.path == step.source }) else { return nil }
            for dependency in program.dependencies[source.path] ?? [] {
                digest.update(field: dependency.name)
                digest.update(field: dependency.path ?? "<missing>")
                digest.update(field: dependency.digest ?? "<unreadable>")
            }
        case .c:
            guard let root, let manifest = currentManifest(step, program: program, root: root) else { return nil }
            digest.update(field: manifest)
        }
        return digest.hexDigest()
    }

    /// Compiles `step` unless its object is cached; returns its full key and what the tool printed.
    /// Objects are stored only when `storing`: a one-source program's executable entry is all a
    /// warm run reads, and each entry is an inode a cold run pays for.
    func obtainObject(
        _ step: CompileStep, key: String?, program: Program, builder: Builder, storing: Bool
    ) throws -> (key: String?, warnings: String) {
        if let root, let key, let (object, warnings, _, _) = CacheEntry(path: root + "/objects/" + key).read(),
            FileCopy.write(object, to: step.object, mode: 0o644)
        {
            builder.trace?(
                "(cached \(key.prefix(12))) \(step.source): the object compiled earlier from the same source, includes and flags")
            return (key, warnings)
        }
        let stage: BuildFailure.Stage = step.language == .assembly ? .assemble : .compile
        let hint = step.language == .assembly ? BuildFailure.assemblyHint : BuildFailure.compileHint
        let warnings = try builder.run(step.command, stage: stage, source: step.source, hint: hint)
        try checkUnchanged(step, program: program)
        guard let root else { return (nil, warnings) }
        var fullKey = key
        if step.language == .c, let manifest = writeManifest(step, program: program, root: root) {
            var digest = baseDigest(step, program: program)
            digest.update(field: manifest)
            fullKey = digest.hexDigest()
        }
        // Read only to be stored: the link reads it again for its symbols anyway.
        if let fullKey, storing, let object = try? Files.read(step.object) {
            store(object, warnings: warnings, key: fullKey, root: root)
        }
        return (fullKey, warnings)
    }

    /// The tool, its identity, its flags (the scratch paths that change every run neutral) and
    /// the source's bytes as they were read.
    private func baseDigest(_ step: CompileStep, program: Program) -> SHA256 {
        var digest = SHA256()
        digest.update(field: "asmrun-object-1")
        digest.update(field: step.language.rawValue)
        digest.update(field: step.command.executable)
        digest.update(field: identity(of: step.command.executable))
        for argument in step.command.arguments {
            digest.update(field: argument == step.object ? "@object" : argument == step.dependencyFile ? "@deps" : argument)
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

    /// `PATH\tDIGEST` per header of the C file's last compile, when every one is unchanged.
    private func currentManifest(_ step: CompileStep, program: Program, root: String) -> String? {
        guard let (payload, _, _, _) = CacheEntry(path: root + "/objects/" + manifestKey(step, program)).read() else { return nil }
        let text = String(decoding: payload, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let bytes = try? Files.read(String(parts[1])), SHA256.hex(bytes) == parts[0] else { return nil }
        }
        return text
    }

    /// Records the headers the compiler listed (`-MMD`), hashed now, for the next run's key.
    private func writeManifest(_ step: CompileStep, program: Program, root: String) -> String? {
        guard let file = step.dependencyFile, let bytes = try? Files.read(file) else { return nil }
        var lines: [String] = []
        for header in Self.makeDependencies(String(decoding: bytes, as: UTF8.self)) where header != step.source {
            guard let content = try? Files.read(header) else { return nil }
            lines.append(SHA256.hex(content) + "\t" + header)
        }
        let manifest = lines.sorted().joined(separator: "\n")
        store(Array(manifest.utf8), warnings: "", key: manifestKey(step, program), root: root, later: false)
        return manifest
    }

    /// The headers the C files read: each compile's `-MMD` list when it just ran, else the
    /// manifest the cache keeps of its last compile.
    func headers(of plan: BuildPlan, program: Program) -> [String] {
        plan.compiles.filter { $0.language == .c }.flatMap { step -> [String] in
            if let file = step.dependencyFile, let bytes = try? Files.read(file) {
                return Self.makeDependencies(String(decoding: bytes, as: UTF8.self)).filter { $0 != step.source }
            }
            guard let root, let (payload, _, _, _) = CacheEntry(path: root + "/objects/" + manifestKey(step, program)).read() else {
                return []
            }
            return String(decoding: payload, as: UTF8.self).split(separator: "\n").compactMap { line in
                line.split(separator: "\t", maxSplits: 1).dropFirst().first.map(String.init)
            }
        }
    }

    private func manifestKey(_ step: CompileStep, _ program: Program) -> String {
        var digest = baseDigest(step, program: program)
        digest.update(field: "headers")
        return digest.hexDigest()
    }

    /// The prerequisites of a make rule (`obj.o: a.c b.h \` …), with `\ ` as an escaped space.
    static func makeDependencies(_ text: String) -> [String] {
        let joined = text.split(separator: "\\\n", omittingEmptySubsequences: false).joined(separator: " ")
        guard let colon = joined.firstRange(of: ": ") ?? joined.firstRange(of: ":\n") else { return [] }
        var words: [String] = []
        var current = ""
        var escaped = false
        for character in joined[colon.upperBound...] {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\n" || character == "\t" {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
