import Support

extension ProgramBounds {
    /// A file a program names that lies outside (or may), or is not what the build may be given
    /// there: the program is not built.
    package struct Refusal: Sendable, Equatable {
        /// What names it.
        package enum Kind: Sendable, Equatable { case link, with, include, computedInclude, incbin, flag, notObject, script }
        package var kind: Kind
        /// The program's own file (and line) that names it, or is the link.
        package var source: FileLocation
        /// The file as the source names it (the link's target, resolved; the flag as written).
        package var named: String

        /// One line for the user, after `SOURCE:LINE: `.
        package func problem(outside root: String) -> String {
            switch kind {
            case .link: "is a link to \(named), outside \(root)"
            case .with: "is built with \(named) (`with`), outside \(root)"
            case .include: "includes \(named), outside \(root)"
            case .computedInclude: "includes a file by a computed name (a macro, `%pathsearch`, `%depend`), which may be outside \(root)"
            case .incbin: "uses `.incbin` in C code, which may read a file outside \(root)"
            case .flag: "passes `\(named)` (`c-flags`, `link-flags` or `include`), outside \(root)"
            case .notObject: "passes `\(named)`, which is not an object file or archive: ld would read it as a linker script"
            case .script: "passes the linker script `\(named)`, which names files: a source's script may not"
            }
        }

        /// What to do about it, when not graded (a graded submission is built from its own files).
        package func fix(root: String) -> String {
            switch kind {
            case .notObject, .script:
                "remove it from the source, or pass it with --link-flags on your own command line if you trust it"
            default:
                "keep the program's files inside \(root), or name a folder that holds them all on the command line"
            }
        }

        /// The same for the student, in their own names.
        package var studentText: String {
            let name = PathName.lastComponent(of: source.path)
            return switch kind {
            case .link: "\(name) is a link to a file outside your submission"
            case .with: "\(name) is built with \(named), which is outside your submission"
            case .include: "\(name) includes \(named), which is outside your submission"
            case .computedInclude: "\(name) includes a file by a computed name; name the files you include in quotes"
            case .incbin: "\(name) uses .incbin, which grading does not allow in C code"
            case .flag: "\(name) passes the build \(named), which is outside your submission"
            case .notObject: "\(name) passes the linker \(named), which is not an object file or archive"
            case .script: "\(name) passes a linker script that names other files"
            }
        }
    }
}
