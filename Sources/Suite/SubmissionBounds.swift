import Source
import Support

/// Where a graded submission's files must be: inside the path given for it (for a file given on
/// its own, inside that file's folder) and never inside the reference. Paths are compared once
/// symbolic links are resolved, so a link out of the submission leads outside too.
struct SubmissionBounds: Sendable {
    /// A file a program names that lies outside (or may): the program is not built.
    struct Refusal: Sendable, Equatable {
        enum Kind: Sendable, Equatable { case link, with, include, computedInclude, incbin, flag }
        var kind: Kind
        /// The program's own file that names it (or is the link).
        var source: String
        /// The file as the source names it (the link's target, resolved).
        var named: String

        /// One line for the teacher, after `SOURCE: `.
        func problem(outside root: String) -> String {
            switch kind {
            case .link: "is a link to \(named), outside \(root)"
            case .with: "is built with \(named) (`with`), outside \(root)"
            case .include: "includes \(named), outside \(root)"
            case .computedInclude: "includes a file by a computed name (a macro, `%pathsearch`, `%depend`), which may be outside \(root)"
            case .incbin: "uses `.incbin` in C code, which may read a file outside \(root)"
            case .flag: "passes `\(named)` (`c-flags` or `link-flags`), outside \(root)"
            }
        }

        /// The same for the student, in their own names.
        var studentText: String {
            let name = PathName.lastComponent(of: source)
            return switch kind {
            case .link: "\(name) is a link to a file outside your submission"
            case .with: "\(name) is built with \(named), which is outside your submission"
            case .include: "\(name) includes \(named), which is outside your submission"
            case .computedInclude: "\(name) includes a file by a computed name; name the files you include in quotes"
            case .incbin: "\(name) uses .incbin, which grading does not allow in C code"
            case .flag: "\(name) passes the build \(named), which is outside your submission"
            }
        }
    }

    /// The path given, as given (for messages).
    let root: String
    /// The folder the files must be in, lexically (`standardize`d) and really.
    private let folder: String
    private let inside: String?
    private let reference: String?

    init(root: String, reference: String?) {
        self.root = root
        let folder = Files.isDirectory(root) ? root : PathName.directory(of: root)
        self.folder = ProgramFolder.standardize(folder.isEmpty ? "." : folder)
        inside = Files.realPath(folder.isEmpty ? "." : folder)
        self.reference = reference.flatMap(Files.realPath)
    }

    /// Whether the file at `path` resolves inside the submission (and not into the reference).
    func holds(_ path: String) -> Bool {
        guard let inside, let real = Files.realPath(path) else { return false }
        if let reference, Files.isWithin(real, folder: reference) { return false }
        return Files.isWithin(real, folder: inside)
    }

    /// The first file `program` is built from, or pulls in, that lies outside; `nil` when every
    /// one is inside. A computed `%include` is refused too: what it reads cannot be checked.
    func refusal(of program: Program) -> Refusal? {
        for file in program.files where !holds(file) {
            if Files.isWithin(ProgramFolder.standardize(file), folder: folder) {
                return Refusal(kind: .link, source: file, named: Files.realPath(file) ?? file)
            }
            return Refusal(kind: .with, source: program.main.path, named: Self.relative(file, to: program.main.directory))
        }
        for source in program.assembly {
            if source.inputs.opaque { return Refusal(kind: .computedInclude, source: source.path, named: "") }
            for dependency in program.dependencies[source.path] ?? [] {
                if let path = dependency.path, !holds(path) {
                    return Refusal(kind: .include, source: source.path, named: dependency.name)
                }
                if dependency.inputs.opaque { return Refusal(kind: .computedInclude, source: dependency.path ?? source.path, named: "") }
            }
        }
        let flags = program.settings.cFlags + program.settings.linkFlags
        if let flag = FlagPaths.firstOutside(flags, bounds: self) { return Refusal(kind: .flag, source: program.main.path, named: flag) }
        for source in program.cSources {
            if let found = CIncludes.firstOutside(source.path, bounds: self) {
                return Refusal(kind: found.kind, source: source.path, named: found.name)
            }
        }
        return nil
    }

    /// `../alice/x.asm` for `subs/bob/../alice/x.asm` from `subs/bob`.
    private static func relative(_ path: String, to folder: String) -> String {
        let prefix = folder == "." ? "" : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
