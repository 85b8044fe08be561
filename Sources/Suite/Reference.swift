import Glibc
import Source
import Support

/// A folder of expectations shared by many submissions (`--reference DIR`): a program at
/// `SUBMISSION/REL.asm` is checked against `DIR/REL.expect` (a folder program `SUBMISSION/X`
/// against `DIR/X/X.expect`), with `DIR/REL.files/` as its case files, whatever the submission
/// holds beside its sources. Which program of a submission is graded as which reference program
/// is `match`'s choice; how it is judged, `policy`'s.
package struct Reference: Sendable {
    /// The folder as given.
    package let path: String
    /// Every `.expect` below it, by its path relative to it without `.expect` (`hello`,
    /// `leap/leap`), sorted.
    package let keys: [String]
    /// What the reference's own source of each key says about judging it (`policy(for:)`).
    let policies: [String: ProgramSettings]

    /// Reads the folder's list of expectations; an error names the folder and the fix.
    package init(path: String) throws {
        self.path = path
        guard Files.isDirectory(path) else {
            throw FileError(
                path: path, problem: Files.exists(path) ? "is not a folder" : "does not exist",
                fix: "--reference takes the folder that holds the .expect files")
        }
        guard Files.realPath(path) != "/" else {
            throw FileError(
                path: path, problem: "is the root folder, which cases could not be kept from reading",
                fix: "--reference takes the folder that holds the .expect files")
        }
        var keys: [String] = []
        var visited = Set<[UInt64]>()
        try Self.collect(path, prefix: "", into: &keys, visited: &visited)
        guard !keys.isEmpty else {
            throw FileError(
                path: path, problem: "holds no .expect files", fix: "record them with `asmrun test \(path) --update`")
        }
        self.keys = keys.sorted()
        var policies: [String: ProgramSettings] = [:]
        for key in self.keys { policies[key] = try Self.loadPolicy(for: key, in: path) }
        self.policies = policies
    }

    private static func collect(_ directory: String, prefix: String, into keys: inout [String], visited: inout Set<[UInt64]>) throws {
        var info = stat()
        guard stat(directory, &info) == 0, visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        let names: [String]
        do {
            names = try Files.list(directory)
        } catch {
            throw FileError(path: directory, problem: error.problem, fix: "check its permissions")
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if Files.isDirectory(full) {
                if !name.hasSuffix(".files") { try collect(full, prefix: prefix + name + "/", into: &keys, visited: &visited) }
            } else if name.hasSuffix(".expect") {
                keys.append(prefix + String(name.dropLast(".expect".count)))
            }
        }
    }

    /// The key a program of a submission looks for: its path relative to the submission, without
    /// its extension (`part2/sum`), or `X/X` for a folder program `X`.
    static func key(of location: Discovery.Location, under root: String, isFolder: Bool) -> String {
        let base = TestProgram.expectationBase(of: location)
        let standardRoot = ProgramFolder.standardize(root)
        let standard = ProgramFolder.standardize(base)
        if isFolder && standard.hasPrefix(standardRoot + "/") {
            return String(standard.dropFirst(standardRoot.count + 1))
        }
        return PathName.lastComponent(of: base)
    }

    /// `DIR/KEY`.
    func join(_ key: String) -> String { path.hasSuffix("/") ? path + key : path + "/" + key }
}
