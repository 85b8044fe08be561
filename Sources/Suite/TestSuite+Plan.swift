import Support

extension TestSuite {
    /// Which of the programs found are loaded, and, with a reference, as which of its programs.
    struct Plan {
        var entries: [(location: Discovery.Location, root: Int, key: String?)]
        /// Per path given: the reference keys several of its programs could be, with their paths.
        var conflicts: [[(key: String, candidates: [String])]]
        let paths: [String]

        /// Every program found, as itself.
        init(_ found: Discovery.Found, paths: [String]) {
            entries = zip(found.programs, found.roots).map { (location: $0, root: $1, key: nil) }
            conflicts = Array(repeating: [], count: paths.count)
            self.paths = paths
        }

        /// Keeps, per path given, the programs `reference` grades (`Reference.match`); the others
        /// are skipped with the reason.
        mutating func match(_ reference: Reference, _ skipped: inout [(path: String, reason: String)], _ ignored: inout [String]) {
            var matched: [(location: Discovery.Location, root: Int, key: String?)] = []
            for root in paths.indices {
                let mine = entries.filter { $0.root == root }
                let match = reference.match(mine.map(\.location), under: paths[root], rootIsFolder: Files.isDirectory(paths[root]))
                for (index, entry) in mine.enumerated() {
                    if let key = match.keys[index] {
                        matched.append((entry.location, root, key))
                    } else if let reason = match.passedOver[index] {
                        skipped.append((entry.location.path, reason))
                        ignored.append(entry.location.path)
                    }
                }
                conflicts[root] = match.conflicts.map { conflict in (conflict.key, conflict.candidates.map { mine[$0].location.path }) }
            }
            entries = matched
        }
    }
}
