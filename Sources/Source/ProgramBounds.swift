import Support

/// The folder a program's files must be in, the build's boundary: a source that names a file
/// outside it (`with`, `%include`, `incbin`, a C `#include`, a flag's path) is refused with one
/// line naming FILE:LINE, whoever runs it.
///
/// The boundary is what the user named on the command line: for `asmrun test PATH…` the path given
/// that the program was found under (a file's own folder for a file), so a tutorial tree tested
/// from its root keeps sharing `../common/`; for `asmrun FILE…` the folder of each file (or the
/// folder) named and each `-I DIR`; when graded, the submission, never the reference. Paths are
/// compared once symbolic links are resolved, so a link out of the folder leads outside too.
package struct ProgramBounds: Sendable {
    /// The folder(s) given, as given (for messages).
    package let root: String
    /// The folders, lexically (`standardize`d) and really.
    private let folders: [String]
    private let inside: [String]
    private let reference: String?
    /// Graded (`--reference`, `--untrusted`): what cannot be checked (a computed `%include`, C
    /// `.incbin`) is refused too.
    package let graded: Bool

    /// The bounds of a suite's path `root` (or a submission's, when graded).
    package init(root: String, reference: String? = nil, graded: Bool = false) {
        self.init(roots: [root], reference: reference, graded: graded)
    }

    /// The bounds of paths named on a command line: each folder, and each file's folder.
    package init(roots: [String], reference: String? = nil, graded: Bool = false) {
        let folders = roots.map { root in
            let folder = Files.isDirectory(root) ? root : PathName.directory(of: root)
            return folder.isEmpty ? "." : folder
        }
        var shown: [String] = []
        for folder in folders where !shown.contains(folder) { shown.append(folder) }
        root = shown.map { $0 == "." ? "the current folder" : $0 }.joined(separator: ", ")
        self.folders = folders.map(ProgramFolder.standardize)
        inside = folders.compactMap(Files.realPath)
        self.reference = reference.flatMap(Files.realPath)
        self.graded = graded
    }

    /// Whether the file at `path` resolves inside the bounds (and not into the reference).
    package func holds(_ path: String) -> Bool {
        guard let real = Files.realPath(path) else { return false }
        if let reference, Files.isWithin(real, folder: reference) { return false }
        return inside.contains { Files.isWithin(real, folder: $0) }
    }

    /// Whether `path` lies inside lexically (before links are resolved).
    func holdsLexically(_ path: String) -> Bool {
        let standard = ProgramFolder.standardize(path)
        return folders.contains { Files.isWithin(standard, folder: $0) }
    }

    /// The first file `program` is built from, or pulls in, that lies outside; `nil` when every
    /// one is inside.
    package func refusal(of program: Program) -> Refusal? {
        for source in program.assembly {
            if let found = namedRefusal(source) { return found }
        }
        for file in program.files where !holds(file) {
            if holdsLexically(file) {
                return Refusal(kind: .link, source: FileLocation(file), named: Files.realPath(file) ?? file)
            }
            return Refusal(kind: .with, source: FileLocation(program.main.path), named: Self.relative(file, to: program.main.directory))
        }
        for source in program.assembly {
            if graded && source.inputs.opaque { return Refusal(kind: .computedInclude, source: FileLocation(source.path), named: "") }
            for dependency in program.dependencies[source.path] ?? [] {
                let at = dependency.includedAt ?? FileLocation(source.path)
                if let path = dependency.path, !holds(path) { return Refusal(kind: .include, source: at, named: dependency.name) }
                if graded && dependency.inputs.opaque {
                    return Refusal(kind: .computedInclude, source: FileLocation(dependency.path ?? source.path), named: "")
                }
            }
        }
        for source in program.cSources {
            if let found = CIncludes.firstOutside(source.path, bounds: self) { return found }
        }
        return nil
    }

    /// `../alice/x.asm` for `subs/bob/../alice/x.asm` from `subs/bob`.
    static func relative(_ path: String, to folder: String) -> String {
        let prefix = folder == "." ? "" : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
