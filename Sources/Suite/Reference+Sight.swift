import Support

extension Reference {
    /// The folders a grading run's cases must not see (`Containment`'s `hidden`): the reference
    /// folder `path` (its real path: a cover on it covers every way to it), and, where it lies in
    /// an autograder's source folder (the one holding `run_autograder`, as Gradescope's
    /// `/autograder/source` does), that folder too: the teacher's harness and scripts are no
    /// business of a case's. Never `/` (`init` refuses it as a reference).
    package static func hiddenFolders(for path: String) -> [String] {
        guard let real = Files.realPath(path), real != "/" else { return [] }
        let parent = PathName.directory(of: real)
        if parent != "/" && Files.exists(parent + "/run_autograder") { return [parent, real] }
        return [real]
    }
}
