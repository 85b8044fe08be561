import Glibc
import Source
import Support

extension ArtifactStore {
    /// What nasm read that the key does not name, recorded for the entry (`BuildInput`): the
    /// files its `-MD` list names (and, for a source that names a file in a way asmrun's scan
    /// cannot follow, its `-M` listing, since nasm 2.16.01's `-MD` leaves out `%include`s) beyond
    /// the ones the scan found, and the variables those files read with `%!NAME`. `nil` when the
    /// object must not be cached: such a file reads the clock or a computed variable, or cannot
    /// be read or listed.
    func unnamedInputs(_ step: CompileStep, program: Program, builder: Builder) throws -> [BuildInput]? {
        guard let source = program.assembly.first(where: { $0.path == step.source }), let file = step.dependencyFile else { return nil }
        var listed = Self.listedFiles(file)
        if program.inputs(of: source).opaque {
            guard let listing = step.listing, (try? builder.run(listing, stage: .assemble, source: step.source, hint: { _ in nil })) != nil
            else { return nil }
            listed += Self.listedFiles(file)
        }
        var known = Set(([source.path] + (program.dependencies[source.path] ?? []).compactMap(\.path)).map(ProgramFolder.standardize))
        var inputs: [BuildInput] = []
        var scanned = SourceInputs()
        for path in listed where known.insert(ProgramFolder.standardize(path)).inserted {
            guard let input = BuildInput.file(path), let bytes = try? Files.read(path) else { return nil }
            inputs.append(input)
            if !bytes.prefix(4096).contains(0) { scanned.formUnion(SourceInputs.of(bytes)) }
        }
        guard scanned.cacheable else { return nil }
        let named = Set(program.inputs(of: source).environmentNames)
        inputs += scanned.environmentNames.filter { !named.contains($0) }.map { BuildInput.environment($0, in: environment) }
        return inputs
    }

    /// The files a make rule in `file` lists (`-MD`, `-M -MF`), the target left out.
    static func listedFiles(_ file: String) -> [String] {
        (try? Files.read(file)).map(makeDependencies) ?? []
    }

    /// The key's part for a C file's headers (`DIGEST\tPATH` per file of its last compile's `-MD`
    /// list), when every one still holds; `nil` when the list is unknown or one changed.
    func currentManifest(_ step: CompileStep, program: Program, root: String) -> String? {
        guard let entry = CacheEntry(path: root + "/objects/" + manifestKey(step, program)).read(),
            let inputs = BuildInput.inputs(of: String(decoding: entry.payload, as: UTF8.self)),
            inputs.allSatisfy({ $0.holds(environment: environment) })
        else { return nil }
        return Self.manifest(inputs)
    }

    /// Records the files the compiler listed (`-MD`), hashed now, for the next run's key; returns
    /// the key's part for them.
    func writeManifest(_ step: CompileStep, program: Program, root: String) -> String? {
        guard let file = step.dependencyFile else { return nil }
        var inputs: [BuildInput] = []
        for header in Self.listedFiles(file) where header != step.source {
            guard let input = BuildInput.file(header) else { return nil }
            inputs.append(input)
        }
        store(Array(BuildInput.record(inputs).utf8), warnings: "", key: manifestKey(step, program), root: root, later: false)
        return Self.manifest(inputs)
    }

    /// `DIGEST\tPATH` per file, sorted: what of a record the key covers (not the files' status).
    private static func manifest(_ inputs: [BuildInput]) -> String {
        inputs.compactMap { input -> String? in
            guard case .file(let path, let digest, _) = input else { return nil }
            return digest + "\t" + path
        }.sorted().joined(separator: "\n")
    }

    /// The headers the C files read: each compile's `-MD` list when it just ran, else the
    /// manifest the cache keeps of its last compile.
    func headers(of plan: BuildPlan, program: Program) -> [String] {
        plan.compiles.filter { $0.language == .c }.flatMap { step -> [String] in
            if let file = step.dependencyFile, Files.exists(file) { return Self.listedFiles(file).filter { $0 != step.source } }
            guard let root, let entry = CacheEntry(path: root + "/objects/" + manifestKey(step, program)).read() else { return [] }
            return (BuildInput.inputs(of: String(decoding: entry.payload, as: UTF8.self)) ?? []).compactMap { input in
                guard case .file(let path, _, _) = input else { return nil }
                return path
            }
        }
    }

    private func manifestKey(_ step: CompileStep, _ program: Program) -> String {
        var digest = baseDigest(step, program: program)
        digest.update(field: "headers")
        return digest.hexDigest()
    }

    /// The prerequisites of the first make rule in `bytes` (`obj.o: a.c b.h \` …): `\` before a
    /// newline continues the rule, `\ ` and `\#` are a blank and `#` in a name, `$$` is `$`; the
    /// rule ends at the first other newline (the phony rules `-MP` and `ld --dependency-file` add
    /// after it repeat its names). Read byte by byte: the generic string algorithms cost a cold
    /// single run 0.2 ms of run-time type lookups.
    static func makeDependencies(_ bytes: [UInt8]) -> [String] {
        let colon = bytes.indices.first { index in
            bytes[index] == UInt8(ascii: ":")
                && (index + 1 == bytes.count || Self.isBlank(bytes[index + 1]) || bytes[index + 1] == backslash)
        }
        guard let colon else { return [] }
        var words: [String] = []
        var current: [UInt8] = []
        var index = colon + 1
        func finishWord() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == backslash && (next == newline || next == UInt8(ascii: " ") || next == UInt8(ascii: "#")) {
                if next == newline { finishWord() } else { current.append(next) }
                index += 2
                continue
            }
            if byte == newline { break }
            if byte == UInt8(ascii: "$") && next == UInt8(ascii: "$") { index += 1 }
            if Self.isBlank(byte) { finishWord() } else { current.append(byte) }
            index += 1
        }
        finishWord()
        return words
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == newline }
}

private let backslash = UInt8(ascii: "\\")
private let newline = UInt8(ascii: "\n")

extension ArtifactStore {
    /// A tool's path, size and modification time: a changed or upgraded tool changes the key.
    /// Read once per tool and store, as a build tool reads its compiler's once per run: three
    /// stats and their formatting for every program otherwise.
    func identity(of path: String) -> String {
        if let known = identities.withLock({ $0[path] }) { return known }
        let identity = Self.identity(of: path)
        identities.withLock { $0[path] = identity }
        return identity
    }

    static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "absent" }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
