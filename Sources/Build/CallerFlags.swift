import Source
import Support

/// The flags of the command line (`--c-flags`, `--link-flags`): the user's own, so trusted, never
/// read by the allow-list of source directives. They follow every program's own flags in its
/// build, and the files and folders they name are shown to contained builds (`BuildView`).
package struct CallerFlags: Sendable, Equatable {
    /// For compiling every program's C files.
    package var compile: [String] = []
    /// For every program's link step.
    package var link: [String] = []

    /// The most paths a build's view shows for them.
    static let maximumPaths = 8

    package init(compile: [String] = [], link: [String] = []) {
        self.compile = compile
        self.link = link
    }

    /// `program` with these flags after its own.
    func applied(to program: Program) -> Program {
        var program = program
        program.settings.cFlags += compile
        program.settings.linkFlags += link
        return program
    }

    /// The existing files and folders the flags name (absolute, standardized, at most
    /// `maximumPaths`): a word that is a path, a path after `=` (`--sysroot=/x`) or after a
    /// one-letter option (`-L/opt/lib`, `-I../inc`), each item of a `-Wl,` list alike.
    package var namedPaths: [String] {
        var found: [String] = []
        let words = (compile + link).flatMap { $0.hasPrefix("-Wl,") ? $0.dropFirst(4).split(separator: ",").map(String.init) : [$0] }
        for word in words {
            for candidate in Self.candidates(word) where Files.exists(candidate) {
                let full = ProgramFolder.standardize(candidate.hasPrefix("/") ? candidate : Files.currentDirectory + "/" + candidate)
                if !found.contains(full) { found.append(full) }
            }
        }
        return Array(found.prefix(Self.maximumPaths))
    }

    /// What in `word` may be a path.
    private static func candidates(_ word: String) -> [String] {
        guard word.hasPrefix("-") else { return word.isEmpty ? [] : [word] }
        var candidates: [String] = []
        if let equals = word.firstIndex(of: "=") { candidates.append(String(word[word.index(after: equals)...])) }
        if word.count > 2, word.dropFirst().first?.isLetter == true { candidates.append(String(word.dropFirst(2))) }
        return candidates.filter { !$0.isEmpty }
    }
}
