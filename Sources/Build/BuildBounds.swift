import Source
import Support

/// What a store's builds may reach when they run contained (`BuildView`): the folder named on the
/// command line that holds the program (a submission, with `submissions/*`), read-only; never
/// another. Programs in a `trusted` folder (the reference, when grading) are built outside any
/// view, and no view shows that folder.
package struct BuildBounds: Sendable, Equatable {
    /// Folders and files the programs are in (absolute).
    package var readable: [String]
    /// Folders whose programs are built outside the view (absolute).
    package var trusted: [String]

    /// The bounds of the paths given on the command line, as given (relative to the working
    /// directory): a file's folder, a folder itself; `trusted` likewise.
    package init(paths: [String], trusted: [String] = []) {
        func folder(_ path: String) -> String {
            Self.absolute(Files.isDirectory(path) ? path : PathName.directory(of: path).isEmpty ? "." : PathName.directory(of: path))
        }
        self.trusted = trusted.map(folder)
        var readable: [String] = []
        for path in paths.map(folder) where !readable.contains(path) { readable.append(path) }
        self.readable = readable
    }

    /// The folder whose view builds `path` (a program's, as given): the deepest folder named on
    /// the command line that holds it, else its own folder.
    func folder(of path: String) -> String {
        let full = Self.absolute(path)
        let holding = readable.filter { Files.isWithin(full, folder: $0) }
        return holding.max { $0.count < $1.count } ?? (PathName.directory(of: full).isEmpty ? "/" : PathName.directory(of: full))
    }

    /// Whether `path` (a program's, as given) lies in a trusted folder.
    func trusts(_ path: String) -> Bool {
        let full = Self.absolute(path)
        return trusted.contains { Files.isWithin(full, folder: $0) }
    }

    /// `path` from the working directory, standardized.
    private static func absolute(_ path: String) -> String {
        ProgramFolder.standardize(path.hasPrefix("/") ? path : Files.currentDirectory + "/" + path)
    }
}
