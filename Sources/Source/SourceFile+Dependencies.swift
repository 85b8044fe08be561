import Support

/// A file a program pulls in with `%include` or `incbin`: the name as written, the file it
/// resolved to (if any) and the digest of its content.
package struct Dependency: Sendable, Equatable {
    package var name: String
    package var path: String?
    package var digest: String?
    /// What the file makes nasm read besides the files it names (`SourceInputs`).
    var inputs = SourceInputs()
    /// The file that includes it, and the line: `NAME:LINE` for a message.
    var includedAt: FileLocation?

    init(name: String, path: String?, digest: String?, inputs: SourceInputs = SourceInputs()) {
        self.name = name
        self.path = path
        self.digest = digest
        self.inputs = inputs
    }
}

extension SourceFile {
    /// The folders nasm searches for an include, after its working directory: the source's own
    /// folder (asmrun always passes it with `-I`), then every include directory.
    var searchDirectories: [String] { [directory] + settings.includeDirectories }

    /// Every file the source pulls in, recursively, resolved the way nasm does (its working
    /// directory, then each of `directories`); each file is read once, scanned with the same
    /// scanner as sources and hashed. nasm 2.16's own `-MD` omits includes, and `-M` would cost a
    /// process per program.
    package func dependencies(searching directories: [String]? = nil) -> [Dependency] {
        let directories = directories ?? searchDirectories
        var found: [Dependency] = []
        var visited: Set<String> = [path]
        var queue = zip(includes, includeLines).map { (name: $0, at: FileLocation(path, line: $1)) }
        var next = 0
        while next < queue.count && found.count < 1000 {
            let (name, at) = queue[next]
            next += 1
            let resolved = resolve(name, directories)
            var dependency = Dependency(name: name, path: resolved, digest: nil)
            dependency.includedAt = at
            guard let resolved, let bytes = try? Files.read(resolved) else {
                found.append(dependency)
                continue
            }
            dependency.digest = SHA256.hex(bytes)
            guard visited.insert(resolved).inserted, !bytes.prefix(4096).contains(0) else {
                found.append(dependency)
                continue
            }
            let scan = SourceScan(bytes, includesOnly: true)
            dependency.inputs = scan.inputs
            found.append(dependency)
            queue += zip(scan.includes, scan.includeLines).map { (name: $0, at: FileLocation(resolved, line: $1)) }
        }
        return found
    }

    private func resolve(_ name: String, _ directories: [String]) -> String? {
        if name.hasPrefix("/") { return Files.isRegularFile(name) ? name : nil }
        let candidates =
            [name]
            + directories.map { directory in
                directory.hasSuffix("/") ? directory + name : directory + "/" + name
            }
        return candidates.first(where: Files.isRegularFile)
    }
}
