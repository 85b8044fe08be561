import Glibc
import Support

extension Program {
    /// What a file is to a program, by its extension (in any case).
    package enum SourceKind {
        case assembly, c, prebuilt

        package init?(path: String) {
            switch PathName.pathExtension(of: path).lowercased() {
            case "asm", "nasm", "s": self = .assembly
            case "c": self = .c
            case "o", "a": self = .prebuilt
            default: return nil
            }
        }
    }

    /// One `.asm` file and the files its `; asmrun: with` directive names.
    package static func load(file path: String) throws -> Program {
        try load(files: [path])
    }

    /// Files named on the command line; the first assembly source configures the program and
    /// names it, the files its `with` directive names join them. `overriding` applies the command
    /// line's settings to the main source's before the sources are checked to agree (`-f` chooses
    /// the format of every source).
    package static func load(files paths: [String], overriding: (inout ProgramSettings) -> Void = { _ in }) throws -> Program {
        let kinds = try paths.map(kind(of:))
        guard let first = zip(paths, kinds).first(where: { $0.1 == .assembly })?.0 else {
            let named = paths.joined(separator: " ")
            throw FileError(
                path: paths.first ?? ".", problem: "is not an assembly source",
                fix: "name the .asm files too (asmrun prog.asm \(named)), or the folder that holds them")
        }
        var main = try SourceFile.load(first)
        overriding(&main.settings)
        var program = Program(
            path: first, name: PathName.removingExtension(PathName.lastComponent(of: first)), isFolder: false,
            assembly: [main])
        try program.add(paths.filter { $0 != first } + main.settings.sources)
        return try program.validated()
    }

    /// A folder as one program: every `.asm`, `.nasm`, `.s` and `.c` file in it and its subfolders
    /// (hidden ones and `NAME.files` input folders left out), except files the others
    /// `%include`; the source named like the folder, or else the one that defines an entry
    /// point, configures it; `overriding` applies the command line's settings to its settings.
    package static func load(folder: String, overriding: (inout ProgramSettings) -> Void = { _ in }) throws -> Program {
        let found = ProgramFolder.scan(folder)
        var sources = try found.assembly.map(SourceFile.load)
        let helpers = Set(sources.flatMap { $0.dependencies().compactMap(\.path) }.map(ProgramFolder.standardize))
        sources.removeAll { $0.settings.includeOnly || helpers.contains(ProgramFolder.standardize($0.path)) }
        let name = PathName.lastComponent(of: ProgramFolder.standardize(folder))
        let cSources = try found.c.map(CSourceFile.load)
        let entries = sources.filter { $0.definesStart || $0.definesMain }
        guard var main = sources.first(where: { $0.stem == name }) ?? entries.first ?? sources.first else {
            throw FileError(path: folder, problem: "holds no .asm source", fix: "name a folder with the program's .asm files")
        }
        if entries.count > 1 && !cSources.contains(where: \.definesMain) {
            let names = entries.map { PathName.lastComponent(of: $0.path) }.joined(separator: ", ")
            throw FileError(
                path: folder, problem: "holds several programs (\(names) each define an entry point)",
                fix: "run one of them, or test them all with `asmrun test \(folder)`")
        }
        overriding(&main.settings)
        var program = Program(path: folder, name: name, isFolder: true, assembly: [main] + sources.filter { $0.path != main.path })
        program.cSources = cSources
        try program.add(main.settings.sources)
        return try program.validated()
    }

    /// Adds files (skipping ones it already has).
    package mutating func add(_ paths: [String]) throws {
        var known = Set(files.map(ProgramFolder.standardize))
        for path in paths where known.insert(ProgramFolder.standardize(path)).inserted {
            switch try Self.kind(of: path) {
            case .assembly: assembly.append(try SourceFile.load(path))
            case .c: cSources.append(try CSourceFile.load(path))
            case .prebuilt:
                guard Files.isRegularFile(path) else { throw FileError(path: path, problem: "no such file", fix: "check the path") }
                prebuilt.append(path)
            }
        }
    }

    private func validated() throws -> Program {
        if let conflict = formatConflict() { throw conflict }
        var program = self
        program.resolveDependencies()
        return program
    }

    private static func kind(of path: String) throws -> SourceKind {
        guard let kind = SourceKind(path: path) else {
            // `asmrun hello` beside hello.asm: the name of the program, not of its source.
            if let source = [".asm", ".nasm"].map({ path + $0 }).first(where: Files.isRegularFile) {
                let what = Files.isRegularFile(path) ? "is not a source (an executable?)" : "no such file"
                throw FileError(path: path, problem: what, fix: "did you mean \(source.displayEscaped)? asmrun \(source.displayEscaped)")
            }
            throw FileError(
                path: path, problem: "is not a file asmrun builds", fix: "name .asm, .nasm, .s, .c, .o or .a files, or a folder")
        }
        return kind
    }
}

/// The source files below a folder, for a folder program.
package struct ProgramFolder {
    package var assembly: [String] = []
    package var c: [String] = []

    /// Every source below `folder`, sorted, hidden files and `NAME.files` folders left out; a
    /// link to a folder is followed only while it leads inside `folder` (a link to `/` would
    /// make every source of the machine part of the program), each folder once.
    package static func scan(_ folder: String) -> ProgramFolder {
        var found = ProgramFolder()
        var visited = Set<String>()
        walk(folder, bound: Files.realPath(folder), &found, &visited)
        return found
    }

    /// The C files that belong to a file of functions in `folder`: the folder's own, and those
    /// of folders below it that hold no assembly source (a vendored test framework), never those
    /// of a folder below that is another program's.
    package static func companionC(of folder: String) -> [String] {
        let found = scan(folder)
        let base = standardize(folder)
        let programFolders = Set(found.assembly.map { standardize(parent($0)) }).subtracting([base])
        return found.c.filter { path in
            var directory = standardize(parent(path))
            while directory.count > base.count {
                if programFolders.contains(directory) { return false }
                directory = parent(directory)
            }
            return true
        }
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    private static func walk(_ directory: String, bound: String?, _ found: inout ProgramFolder, _ visited: inout Set<String>) {
        let key = Files.realPath(directory) ?? standardize(directory)
        guard visited.insert(key).inserted, let names = try? Files.list(directory) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if Files.isDirectory(path) {
                guard !name.hasSuffix(".files"), leadsInside(path, bound) else { continue }
                walk(path, bound: bound, &found, &visited)
                continue
            }
            switch Program.SourceKind(path: path) {
            case .assembly: found.assembly.append(path)
            case .c: found.c.append(path)
            case .prebuilt, nil: break
            }
        }
    }

    /// Whether the folder at `path` is not a link, or a link that resolves inside `bound`.
    private static func leadsInside(_ path: String, _ bound: String?) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return true }
        guard let bound, let real = Files.realPath(path) else { return false }
        return Files.isWithin(real, folder: bound)
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved lexically: a cheap key that
    /// names a file the same way however it was reached (no readlink per component).
    package static func standardize(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        if absolute.utf8.withContiguousStorageIfAvailable(isStandard) == true { return absolute }
        let bytes = Array(absolute.utf8)
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        // One pass over the bytes, keeping where each component starts in `result`, so `..`
        // drops the last one (allocating slices and literals per component cost 7,000
        // instructions a call, five calls per program).
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var starts: [Int] = []
        var index = 0
        while index < bytes.count {
            while index < bytes.count && bytes[index] == slash { index += 1 }
            let start = index
            while index < bytes.count && bytes[index] != slash { index += 1 }
            let length = index - start
            if length == 0 || (length == 1 && bytes[start] == dot) { continue }
            if length == 2 && bytes[start] == dot && bytes[start + 1] == dot {
                if let last = starts.popLast() { result.removeSubrange(last...) }
                continue
            }
            starts.append(result.count)
            result.append(slash)
            result.append(contentsOf: bytes[start..<index])
        }
        return result.isEmpty ? "/" : String(decoding: result, as: UTF8.self)
    }

    /// An absolute path without empty, `.` or `..` components and without a trailing slash:
    /// what `standardize` would return as it is (most paths, read without a copy).
    private static func isStandard(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        guard bytes.count > 1, bytes[0] == slash, bytes[bytes.count - 1] != slash else { return false }
        var start = 1
        for index in 1...bytes.count where index == bytes.count || bytes[index] == slash {
            let length = index - start
            if length == 0 || (length == 1 && bytes[start] == dot) || (length == 2 && bytes[start] == dot && bytes[start + 1] == dot) {
                return false
            }
            start = index + 1
        }
        return true
    }

    private static let workingDirectory = Files.currentDirectory
}
