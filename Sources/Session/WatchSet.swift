import Source
import Suite
import Support

/// What a watch mode watches and what a save touches: each program's inputs (its sources, the
/// files they `%include` or `incbin`, its C files and headers, its `.expect` file, the Markdown
/// file of a doc-test), the folders they are in and the folders below the paths given (where a
/// new program may appear). Paths are canonical (`Files.realPath` of their folder), as the
/// `FileWatcher` reports them. A plain value, rebuilt after each run.
package struct WatchSet: Sendable, Equatable {
    /// One program: the path it was discovered as, and the files it reads (canonical).
    package struct Program: Sendable, Equatable {
        package var path: String
        package var inputs: [String]
        /// A folder program's folder: a new file in it (a C file, a source) is the program's.
        package var folder: String?
        /// Not built (yet, or its build failed): what it reads is unknown, so any new file in its
        /// folder is (an include it misses); nothing of it runs to write one.
        var unbuilt = false

        package init(path: String, inputs: [String], folder: String? = nil, unbuilt: Bool = false) {
            self.path = path
            self.inputs = inputs
            self.folder = folder
            self.unbuilt = unbuilt
        }
    }

    /// The programs of a save: those to run again, and whether it may have made a new one.
    package struct Affected: Sendable, Equatable {
        package var programs: Set<String> = []
        /// A new source, Markdown file or folder appeared: discovery may find a new program.
        var newPrograms = false

        package var isEmpty: Bool { programs.isEmpty && !newPrograms }
    }

    /// The extensions of a file that may be a new program (or a folder program's new part).
    static let programExtensions: Set<String> = ["asm", "nasm", "c", "md", "markdown"]

    /// Each input and the programs that read it.
    private var readers: [String: Set<String>] = [:]
    /// Folder programs' folders, each with its program.
    private var owners: [String: String] = [:]
    /// The folders of those not built: any new file in one is theirs.
    private var unbuilt: Set<String> = []
    /// The folders to watch.
    package private(set) var folders: Set<String> = []
    /// Every program's path: a rerun keeps those it does not name out, except new ones.
    package private(set) var programs: Set<String> = []

    package init(programs: [Program] = [], folders extra: [String] = []) {
        folders = Set(extra)
        for program in programs {
            self.programs.insert(program.path)
            for input in program.inputs {
                readers[input, default: []].insert(program.path)
                folders.insert(PathName.directory(of: input))
            }
            if let folder = program.folder {
                owners[folder] = program.path
                folders.insert(folder)
                if program.unbuilt { unbuilt.insert(folder) }
            }
        }
        folders.remove("")
    }

    /// What the programs read, and folder programs' folders (a new file in one is the program's).
    var inputs: [String] { Array(readers.keys) + Array(owners.keys) }

    /// Watches `extra` as well (folders below the paths given, found again).
    mutating func watch(folders extra: [String]) { folders.formUnion(extra) }

    /// Whether a save of `path` can matter: a file some program reads, or a file or folder that
    /// may make a new program. (A report written into a watched folder does not.)
    func isRelevant(_ path: String) -> Bool {
        readers[path] != nil || owner(ofNewPart: path) != nil || mayBeProgram(path)
    }

    /// The programs that read what changed, and whether a new program may have appeared.
    func affected(by changed: [String]) -> Affected {
        var affected = Affected()
        for path in changed {
            if let users = readers[path] {
                affected.programs.formUnion(users)
            } else if let owner = owner(ofNewPart: path) {
                affected.programs.insert(owner)
            } else if mayBeProgram(path) {
                affected.newPrograms = true
            }
        }
        return affected
    }

    /// The folder program whose folder `path` is in, when `path` may be a new part of it: a
    /// source or a C header, not a file the program writes (which would restart it without
    /// end) nor an editor's swap or backup file.
    private func owner(ofNewPart path: String) -> String? {
        let folder = PathName.directory(of: path)
        guard let owner = owners[folder] else { return nil }
        let name = PathName.lastComponent(of: path)
        guard !name.hasPrefix(".") else { return nil }
        if unbuilt.contains(folder) { return owner }
        switch Source.Program.SourceKind(path: name) {
        case .assembly, .c: return owner
        case .prebuilt: return nil
        case nil: return PathName.pathExtension(of: name).lowercased() == "h" ? owner : nil
        }
    }

    private func mayBeProgram(_ path: String) -> Bool {
        let name = PathName.lastComponent(of: path)
        guard !name.hasPrefix(".") else { return false }  // editors' swap and backup files
        let suffix = PathName.pathExtension(of: name)
        return suffix.isEmpty ? Files.isDirectory(path) : Self.programExtensions.contains(suffix.lowercased())
    }
}

extension WatchSet.Program {
    /// What `program` reads, with each path made canonical.
    package init(_ program: TestProgram) {
        let files = [program.path, program.expectationPath] + (program.program.map(Self.inputs) ?? [])
        let folder = program.program?.isFolder == true ? Files.realPath(program.path) : nil
        self.init(path: program.path, files: files, folder: folder)
    }

    /// What `program` reads (its C files' `headers` too, when the build listed them).
    package init(_ program: Program, headers: [String] = []) {
        let folder = program.isFolder ? Files.realPath(program.path) : nil
        self.init(path: program.path, files: Self.inputs(of: program) + headers, folder: folder)
    }

    private init(path: String, files: [String], folder: String?) {
        let canonical = files.compactMap(WatchSet.canonical).filter { $0 != folder }
        self.init(path: path, inputs: Array(Set(canonical)).sorted(), folder: folder)
    }

    /// Its sources, C files, objects, the files its sources include (where a missing one would
    /// be, so that creating it reruns the program), and the headers beside its C files (a
    /// suite's build lists them in the cache, not here).
    private static func inputs(of built: Program) -> [String] {
        var files = built.files
        for source in built.assembly {
            for dependency in built.dependencies[source.path] ?? [] {
                files.append(dependency.path ?? (source.directory.isEmpty ? "" : source.directory + "/") + dependency.name)
            }
        }
        for folder in Set(built.cSources.map { PathName.directory(of: $0.path) }) {
            let names = (try? Files.list(folder.isEmpty ? "." : folder)) ?? []
            files += names.filter { $0.hasSuffix(".h") }.map { folder.isEmpty ? $0 : folder + "/" + $0 }
        }
        return files
    }
}

extension WatchSet {
    /// `path` with its folder's real path: a file replaced by a rename keeps this name.
    static func canonical(_ path: String) -> String? {
        let folder = PathName.directory(of: path)
        guard let real = Files.realPath(folder.isEmpty ? "." : folder) else { return nil }
        let name = PathName.lastComponent(of: path)
        return real == "/" ? "/" + name : real + "/" + name
    }

    /// The folders below `root` (itself included, when a folder), at most `limit` of them,
    /// skipping hidden ones: where discovery finds programs, and so where a new one may appear.
    package static func folders(below root: String, limit: Int = 4096) -> [String] {
        guard Files.isDirectory(root), let start = Files.realPath(root) else { return [] }
        var found = [start]
        var next = 0
        while next < found.count && found.count < limit {
            let folder = found[next]
            next += 1
            guard let entries = try? Files.listEntries(folder) else { continue }
            for entry in entries where !entry.regularFile && !entry.name.hasPrefix(".") {
                let path = folder == "/" ? "/" + entry.name : folder + "/" + entry.name
                if Files.isDirectory(path) && Files.linkTarget(path) == nil { found.append(path) }
            }
        }
        return found
    }
}
