import Source
import Support

/// What a store's builds may reach when they run contained (`BuildView`): the suite's folders,
/// read-only. Programs in a `trusted` folder (the reference, when grading) are built outside the
/// view, which never shows that folder to the others' builds.
package struct BuildBounds: Sendable, Equatable {
    /// Folders and files the programs are in (absolute).
    package var readable: [String]
    /// Folders whose programs are built outside the view (absolute).
    package var trusted: [String]

    /// The bounds of the paths given on the command line, as given (relative to the working
    /// directory): a file's folder, a folder itself; `trusted` likewise.
    package init(paths: [String], trusted: [String] = []) {
        func absolute(_ path: String) -> String {
            let folder = Files.isDirectory(path) ? path : PathName.directory(of: path)
            let joined = folder.hasPrefix("/") ? folder : Files.currentDirectory + "/" + (folder.isEmpty ? "." : folder)
            return ProgramFolder.standardize(joined)
        }
        self.trusted = trusted.map(absolute)
        readable = Self.fewest(paths.map(absolute), limit: 12, avoiding: self.trusted)
    }

    /// `paths` without those inside another; past `limit`, their folders' folders (`asmrun test
    /// submissions/*`), as long as none holds an `avoiding` folder (then they stay as they are,
    /// and the view is not made: `BuildView.make` refuses more than 16).
    static func fewest(_ paths: [String], limit: Int, avoiding: [String]) -> [String] {
        var kept: [String] = []
        for path in paths.sorted() where !kept.contains(where: { Files.isWithin(path, folder: $0) }) { kept.append(path) }
        guard kept.count > limit else { return kept }
        let parents = kept.map { PathName.directory(of: $0).isEmpty ? "/" : PathName.directory(of: $0) }
        guard parents.allSatisfy({ $0 != "/" }),
            !avoiding.contains(where: { trusted in parents.contains { Files.isWithin(trusted, folder: $0) } })
        else { return kept }
        return fewest(parents, limit: limit, avoiding: avoiding)
    }

    /// Whether `path` (a program's, as given) lies in a trusted folder.
    func trusts(_ path: String) -> Bool {
        guard !trusted.isEmpty else { return false }
        let full = ProgramFolder.standardize(path.hasPrefix("/") ? path : Files.currentDirectory + "/" + path)
        return trusted.contains { Files.isWithin(full, folder: $0) }
    }
}
