import Compare
import Glibc
import Source
import Support

/// Finds the programs under the paths given to `asmrun test`, in a stable sorted order:
/// `.asm` and `.nasm` files (in any case) one program each, and folders that are one program
/// (asm functions with a C `main`, or a folder holding `FOLDER.expect`). Folders are searched
/// recursively, symlinks followed once and only while they lead inside the path given, loops
/// reported; files that look like assembly but are not taken are listed as skipped. An
/// interrupt ends the search at once.
struct Discovery {
    /// Where a program is.
    enum Location: Equatable {
        case file(String)
        case folder(String)

        var path: String {
            switch self {
            case .file(let path), .folder(let path): path
            }
        }
    }

    /// The programs found and the problems met, each naming its path.
    struct Found {
        var programs: [Location] = []
        /// For each program, the index of the path given that it was found under.
        var roots: [Int] = []
        /// How many programs were found under each path given, before a program found under
        /// two of them was kept for the first alone.
        var foundPerRoot: [Int] = []
        var skipped: [(path: String, reason: String)] = []
        /// The skipped files no program uses either (`.s` files, C files without `main`).
        var ignored: [String] = []
        var problems: [FileError] = []
        /// Links not followed that deserve a line of their own (a link to a folder that holds
        /// it, a loop of links that are not programs): not errors.
        var notes: [String] = []
        var missing = 0
        /// `AtomicFile` temporary files seen beside the sources (`.x.expect.asmrun-XXXXXX`), as
        /// (folder, name): a run that died while writing may have left them.
        var temporaryFiles: [(folder: String, name: String)] = []
        /// `stop` said so before every folder was searched.
        var interrupted = false
    }

    /// One search under one path given.
    private struct Walk {
        /// The real path of the path given: links that lead out of it are not followed.
        let bound: String?
        let stop: () -> Bool
    }

    /// Folders already searched (device, inode), and links to folders met on the way: they are
    /// followed once every real folder under the path given was searched, so a folder reached
    /// both as itself and through a link is searched once, under its own name.
    private struct Searched {
        var folders = Set<[UInt64]>()
        var links: [String] = []
        /// The members of each file link loop already reported.
        var loops = Set<String>()
    }

    static func find(_ paths: [String], stop: @escaping () -> Bool = { false }) -> Found {
        var found = Found()
        var searched = Searched()
        for (root, path) in paths.enumerated() {
            guard !found.interrupted else { break }
            let before = found.programs.count
            defer {
                found.roots += Array(repeating: root, count: found.programs.count - before)
                found.foundPerRoot.append(found.programs.count - before)
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                let reason = errno == ELOOP ? "is a symlink loop" : "does not exist"
                found.missing += 1
                found.problems.append(FileError(path: path, problem: reason, fix: "name an existing .asm file or folder"))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                let search = Walk(bound: Files.realPath(path), stop: stop)
                walk(path, search, &found, &searched)
                while !searched.links.isEmpty { follow(searched.links.removeFirst(), search, &found, &searched) }
            } else {
                // Kept whatever it is, so that loading it names the problem.
                found.programs.append(.file(path))
                found.temporaryFiles += temporaryFiles(besides: path)
            }
        }
        var seen = Set<String>()
        let kept = found.programs.indices.filter { seen.insert(ProgramFolder.standardize(found.programs[$0].path)).inserted }
        found.programs = kept.map { found.programs[$0] }
        found.roots = kept.map { found.roots[$0] }
        return found
    }

    /// A name that is not UTF-8 reads with U+FFFD in it, a name no file has: said, not lost.
    private static func notUTF8(_ name: String, _ path: String, in directory: String) -> FileError? {
        guard name.unicodeScalars.contains("\u{FFFD}") && !Files.exists(path) else { return nil }
        return FileError(
            path: path, problem: "has a name that is not UTF-8 (shown with �), which asmrun cannot open",
            fix: "rename it in UTF-8, e.g. convmv -f latin1 -t utf8 -r --notest \(directory)")
    }

    private static func walk(_ directory: String, _ search: Walk, _ found: inout Found, _ searched: inout Searched) {
        guard !found.interrupted else { return }
        guard !search.stop() else {
            found.interrupted = true
            return
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        // Only a bind mount can bring a real folder back: it is searched once.
        guard searched.folders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        let entries: [(name: String, regularFile: Bool)]
        do {
            entries = try Files.listEntries(directory).sorted { $0.name < $1.name }
        } catch {
            found.problems.append(FileError(path: directory, problem: "cannot be read", fix: "check its permissions"))
            return
        }
        let names = entries.map(\.name)
        found.temporaryFiles += names.filter { $0.hasPrefix(".") && AtomicFile.isTemporaryName($0) }.map { (directory, $0) }
        let join = { (name: String) in directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name) }
        if isProgramFolder(directory, names: names, join: join) {
            found.programs.append(.folder(directory))
            return
        }
        for (name, regularFile) in entries where !name.hasPrefix(".") {
            let path = join(name)
            if let problem = notUTF8(name, path, in: directory) {
                found.problems.append(problem)
                continue
            }
            // A regular file (the directory entry says so: not a link) is neither a folder nor a
            // broken link, and `stat` would tell nothing more: most names (`.expect`, `.in`, `.out`)
            // are told by the name alone.
            if regularFile {
                classify(name, path, &found)
                continue
            }
            var entry = stat()
            guard stat(path, &entry) == 0 else {
                if errno == ELOOP {
                    reportLoop(name, path, &found, &searched)
                } else if isProgramFile(name) {
                    found.problems.append(FileError(path: path, problem: "is a broken link", fix: "remove the link"))
                }
                continue
            }
            if (entry.st_mode & S_IFMT) == S_IFDIR {
                guard !name.hasSuffix(".files") else { continue }
                var link = stat()
                if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                    searched.links.append(path)
                } else {
                    walk(path, search, &found, &searched)
                }
            } else {
                classify(name, path, &found)
            }
        }
    }

    /// A link to a folder, once every real folder was searched: one leading out of the path
    /// given is skipped, one to a folder already searched (an alias) is skipped saying so, one
    /// to a folder that holds it is a loop, noted in one line; any other is searched.
    private static func follow(_ path: String, _ search: Walk, _ found: inout Found, _ searched: inout Searched) {
        guard !found.interrupted else { return }
        if let outside = linkOut(path, search) {
            found.skipped.append((path, "a link to \(outside), outside the path given: not followed"))
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard searched.folders.contains([UInt64(info.st_dev), UInt64(info.st_ino)]) else {
            return walk(path, search, &found, &searched)
        }
        let target = Files.realPath(path) ?? path
        let holder = Files.realPath(PathName.directory(of: path).isEmpty ? "." : PathName.directory(of: path)) ?? ""
        if Files.isWithin(holder, folder: target) {
            found.notes.append("note: \(path): a link to \(target), which holds it (symlink loop): not followed")
        } else {
            found.skipped.append((path, "a link to \(target), searched under its own name"))
        }
    }

    /// A link that never ends (`a.asm -> b.asm -> a.asm`): one line for the loop, an error when
    /// its names are programs (they cannot be read), a note otherwise.
    private static func reportLoop(_ name: String, _ path: String, _ found: inout Found, _ searched: inout Searched) {
        let members = loopMembers(path)
        guard searched.loops.insert(members.sorted().first ?? path).inserted else { return }
        let cycle = (members + [members.first ?? path]).map { PathName.lastComponent(of: $0) }.joined(separator: " -> ")
        if isProgramFile(name) {
            found.problems.append(FileError(path: path, problem: "is a symlink loop (\(cycle))", fix: "remove the link"))
        } else {
            found.notes.append("note: \(path): a symlink loop (\(cycle)): not followed")
        }
    }

    /// The links met from `path` until one comes back (at most 40, the kernel's own bound).
    private static func loopMembers(_ path: String) -> [String] {
        var chain = [path]
        var current = path
        for _ in 0..<40 {
            guard let target = Files.linkTarget(current) else { break }
            let folder = PathName.directory(of: current)
            let next = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
            if let start = chain.firstIndex(of: next) { return Array(chain[start...]) }
            chain.append(next)
            current = next
        }
        return [path]
    }

    /// Where the folder `path` really is, when a link takes it out of the path given.
    private static func linkOut(_ path: String, _ search: Walk) -> String? {
        var status = stat()
        guard let bound = search.bound, lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let real = Files.realPath(path) else { return path }
        return Files.isWithin(real, folder: bound) ? nil : real
    }

    /// A file that is not a folder: a program, a source skipped with its reason, or nothing.
    private static func classify(_ name: String, _ path: String, _ found: inout Found) {
        if isProgramFile(name) || isDocument(name) {
            found.programs.append(.file(path))
        } else if let reason = skipReason(name) {
            found.skipped.append((path, reason))
            if !["inc", "mac"].contains(PathName.pathExtension(of: name).lowercased()) { found.ignored.append(path) }
        }
    }

    /// `.asm` and `.nasm`, in any case.
    static func isProgramFile(_ name: String) -> Bool {
        let suffix = PathName.pathExtension(of: name).lowercased()
        return suffix == "asm" || suffix == "nasm"
    }

    /// `.md` and `.markdown` files, whose ```nasm blocks are doc-tests (one with none is zero
    /// programs, said with `-v`).
    static func isDocument(_ name: String) -> Bool {
        let suffix = PathName.pathExtension(of: name).lowercased()
        return suffix == "md" || suffix == "markdown"
    }

    /// The temporary files of `NAME.expect` beside a source named on the command line.
    private static func temporaryFiles(besides source: String) -> [(folder: String, name: String)] {
        let parent = PathName.directory(of: source)
        let folder = parent.isEmpty ? "." : parent
        let prefix = "." + PathName.lastComponent(of: ExpectationFile.path(for: source)) + ".asmrun-"
        return ((try? Files.list(folder)) ?? []).filter { $0.hasPrefix(prefix) && AtomicFile.isTemporaryName($0) }.map { (folder, $0) }
    }

    /// Why a file that looks like a source is not a program on its own.
    private static func skipReason(_ name: String) -> String? {
        switch PathName.pathExtension(of: name).lowercased() {
        case "s": "a .s file may be GNU as: name it, or list it with `; asmrun: with`"
        case "inc", "mac": "an include file"
        case "c": "a C file without `main`, outside a program folder: list it with `; asmrun: with`"
        default: nil
        }
    }

    /// A folder that is one program: a C file with `main` beside assembly sources, or
    /// `FOLDER.expect` in it without a `FOLDER.asm`.
    private static func isProgramFolder(_ directory: String, names: [String], join: (String) -> String) -> Bool {
        let base = PathName.lastComponent(of: ProgramFolder.standardize(directory))
        if names.contains(base + ".expect")
            && !names.contains(where: { isProgramFile($0) && PathName.removingExtension($0) == base })
        {
            return true
        }
        let drivers = names.filter { PathName.pathExtension(of: $0).lowercased() == "c" }
        guard drivers.contains(where: { (try? CSourceFile.load(join($0)))?.definesMain == true }) else { return false }
        return !ProgramFolder.scan(directory).assembly.isEmpty
    }
}
