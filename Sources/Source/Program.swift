import Support

/// A C file of a program, read once: its digest (for the cache) and whether it has `main`.
package struct CSourceFile: Sendable, Equatable {
    package let path: String
    package let digest: String
    /// The text defines a `main` function (a test driver, or the program's own main).
    package let definesMain: Bool

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        digest = SHA256.hex(bytes)
        definesMain = Self.findsMain(String(decoding: bytes, as: UTF8.self))
    }

    package static func load(_ path: String) throws -> CSourceFile {
        do {
            return CSourceFile(path: path, bytes: try Files.read(path))
        } catch {
            throw FileError(path: path, problem: error.problem, fix: error == .missing ? "check the path" : "check its permissions")
        }
    }

    /// `main(` as a word, outside a `//` comment.
    private static func findsMain(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let main = Array("main".utf8)
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let code = line.firstRange(of: Array("//".utf8)).map { line[..<$0.lowerBound] } ?? line[...]
            var from = code.startIndex
            while let found = code[from...].firstRange(of: main) {
                let before = found.lowerBound > code.startIndex ? code[found.lowerBound - 1] : UInt8(ascii: " ")
                let after = code[found.upperBound...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.first
                if after == UInt8(ascii: "("), !isIdentifierByte(before) { return true }
                from = found.upperBound
            }
        }
        return false
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}

/// Everything one program is built from: its assembly sources (the first one's directives
/// configure the program), C files, and prebuilt objects and archives.
package struct Program: Sendable {
    /// The file or folder the user named; reports and expectations are keyed by it.
    package let path: String
    /// `hello` for `hello.asm`, the folder's name for a folder: the program sees `./NAME` as argv[0].
    package let name: String
    /// A folder given as one program.
    package let isFolder: Bool
    /// The assembly sources, the one that configures the program first.
    package var assembly: [SourceFile]
    package var cSources: [CSourceFile] = []
    /// `.o` and `.a` files linked as they are.
    package var prebuilt: [String] = []
    /// What each assembly source includes, by its path (see `resolveDependencies`).
    package var dependencies: [String: [Dependency]] = [:]

    package init(path: String, name: String, isFolder: Bool, assembly: [SourceFile]) {
        self.path = path
        self.name = name
        self.isFolder = isFolder
        self.assembly = assembly
    }

    /// The source whose directives configure the whole program.
    package var main: SourceFile {
        get { assembly[0] }
        set { assembly[0] = newValue }
    }

    package var settings: ProgramSettings {
        get { main.settings }
        set { main.settings = newValue }
    }

    /// The files it is built from, in build order.
    package var files: [String] { assembly.map(\.path) + cSources.map(\.path) + prebuilt }

    /// Its sources and the files they include: where a line of the program's own can be.
    package var filesAndIncludes: [String] {
        files + assembly.flatMap { source in (dependencies[source.path] ?? []).compactMap(\.path) }
    }

    /// What the program sees as `argv[0]`.
    package var argv0: String { settings.argv0 ?? "./" + name }

    /// The folder its relative paths start from: the main source's.
    package var directory: String { main.directory }

    /// The folders nasm is given with `-I` for `source`: its own folder, the program's include
    /// directories, and a secondary source's own.
    package func includeDirectories(for source: SourceFile) -> [String] {
        var directories = [source.directory] + settings.includeDirectories
        if source.path != main.path { directories += source.settings.includeDirectories }
        return directories
    }

    /// Resolves and hashes every source's includes once, with the settings as they are now
    /// (after the command line's `-I`); the build's cache keys and helper detection use them.
    package mutating func resolveDependencies() {
        dependencies = [:]
        for source in assembly {
            dependencies[source.path] = source.dependencies(searching: includeDirectories(for: source))
        }
    }

    /// What `source` and the files it includes make nasm read besides them (`SourceInputs`).
    package func inputs(of source: SourceFile) -> SourceInputs {
        var inputs = source.inputs
        for dependency in dependencies[source.path] ?? [] { inputs.formUnion(dependency.inputs) }
        return inputs
    }
}
