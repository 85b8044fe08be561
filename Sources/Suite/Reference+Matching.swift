import Support

extension Reference {
    /// How the programs found under one path given meet the reference's: each reference program
    /// is graded against at most one of them, so an expectation is earned once.
    struct Match {
        /// The reference key each chosen program (by index) is graded as.
        var keys: [Int: String] = [:]
        /// Reference keys several programs could be, with their indices: an error of the
        /// submission, naming them.
        var conflicts: [(key: String, candidates: [Int])] = []
        /// Why each program that is not graded is not.
        var passedOver: [Int: String] = [:]
    }

    /// Chooses, for each reference program, the submission's program at the same path with the
    /// name exactly as the reference's and `.asm`; else the one whose name differs only in case or
    /// is `.nasm`; else, in a folder, the one in a subfolder (`lab1/count.asm` for `count`). A
    /// program taken for one key is no candidate for another; several candidates at the first
    /// rule that finds any are a conflict.
    func match(_ locations: [Discovery.Location], under root: String, rootIsFolder: Bool) -> Match {
        let found = locations.map { Self.key(of: $0, under: root, isFolder: rootIsFolder) }
        let folded = found.map { $0.lowercased() }
        let exact = locations.map { location -> Bool in
            guard case .file(let path) = location else { return true }
            return PathName.pathExtension(of: path) == "asm"
        }
        let rules: [(_ key: String, _ foldedKey: String, _ index: Int) -> Bool] = [
            { key, _, index in exact[index] && found[index] == key },
            { _, foldedKey, index in folded[index] == foldedKey },
            { _, foldedKey, index in rootIsFolder && folded[index].hasSuffix("/" + foldedKey) },
        ]
        var match = Match()
        var taken = Set<Int>()
        var decided: [String: Int] = [:]
        for rule in rules {
            for key in keys where decided[key] == nil {
                let foldedKey = key.lowercased()
                let candidates = locations.indices.filter { !taken.contains($0) && rule(key, foldedKey, $0) }
                guard let first = candidates.first else { continue }
                taken.formUnion(candidates)
                decided[key] = first
                if candidates.count == 1 { match.keys[first] = key } else { match.conflicts.append((key, candidates)) }
            }
        }
        for index in locations.indices where !taken.contains(index) {
            let rival = decided.first { key, _ in folded[index] == key.lowercased() || folded[index].hasSuffix("/" + key.lowercased()) }
            match.passedOver[index] =
                rival.map { "not graded: \(locations[$0.value].path) is the submission's \($0.key)" }
                ?? "not in the reference: \(path) has no .expect of that name"
        }
        return match
    }
}
