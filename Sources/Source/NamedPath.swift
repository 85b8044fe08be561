/// A file or folder a source's directive names (`with`, `include`, a flag's path), kept with the
/// line that names it: whoever knows the program's folder checks that each lies inside it.
package struct NamedPath: Sendable, Equatable {
    /// What the build does with it, which decides what it must be.
    enum Kind: Sendable, Equatable {
        /// A source of the program (`with`).
        case source
        /// A folder searched for includes or libraries (`include DIR`, `-I`, `-L`).
        case folder
        /// A file the compiler reads (`-include`, `-imacros`).
        case file
        /// An object or archive given to the linker: it must be one (ld reads any other file as
        /// a linker script).
        case input
        /// A linker script (`-T`): it may not name other files.
        case script
        /// A library by name (`-l NAME`): each `-L` folder of the directives that holds it must hold
        /// an object or archive, not a script.
        case library
    }

    var kind: Kind
    /// The flag and path as the directive wrote them (`-L ../lib`), for messages.
    var written: String
    /// The path: relative to the source's folder for `with` and `include`, to the build's working
    /// directory for flags; for `.library`, the library's name.
    var path: String
    /// The directive's line in its source.
    var line: Int?
    /// Named relative to the source's folder (`with`, `include`) rather than the build's.
    var relativeToSource: Bool

    init(_ kind: Kind, written: String, path: String, line: Int? = nil, relativeToSource: Bool = false) {
        self.kind = kind
        self.written = written
        self.path = path
        self.line = line
        self.relativeToSource = relativeToSource
    }
}
