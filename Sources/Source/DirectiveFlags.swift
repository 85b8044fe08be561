/// The flags a source's `c-flags` and `link-flags` directives may pass: an allow-list.
///
/// A graded submission or a stranger's pull request is a source nobody reviewed, and its flags
/// reach gcc and ld, which accept unambiguous abbreviations of their long options
/// (`--for-linker=-plugin=x.so`, `--outp=`): no list of what to refuse can be complete. A
/// directive may therefore pass only what shapes the code (optimisation, warnings, standards,
/// machine and code-generation switches, definitions), which libraries and entry point the
/// program gets, and folders and files the boundary check then finds inside the program's folder
/// (`NamedPath`). Everything else is refused, with the word. `link-flags` go to ld or to the C
/// driver, so each word is one that is harmless to both. The command line's flags are the user's
/// own and are not read here. Documentation/running.md, "Source directives", lists the same.
package enum DirectiveFlags {
    /// Which directive the flags come from.
    package enum Stage: Sendable { case compile, link }

    /// A word a directive may not pass, and why.
    package struct Refusal: Error, Sendable, Equatable {
        package var flag: String
        package var reason: String
    }

    /// The linker's own `-B` options, which the compiler driver would take for `-B PREFIX`.
    package static let linkerKeywords: Set<String> = [
        "-Bstatic", "-Bdynamic", "-Bsymbolic", "-Bsymbolic-functions", "-Bno-symbolic",
    ]

    /// The paths `words` name, or the first word a `stage` directive may not pass.
    package static func read(_ words: [String], for stage: Stage) throws(Refusal) -> [NamedPath] {
        var reader = FlagReader(words: words[...], stage: stage)
        while let word = reader.words.popFirst() { try reader.take(word) }
        return reader.paths
    }

    /// Why `flag`, on its own, may not come from a directive, or nil (for tests and tables).
    package static func problem(_ flag: String, link: Bool) -> String? {
        do {
            _ = try read([flag], for: link ? .link : .compile)
            return nil
        } catch {
            return error.reason
        }
    }
}

/// Reads a directive's words in order, taking a flag's value from the next word where it has one.
struct FlagReader {
    var words: ArraySlice<String>
    let stage: DirectiveFlags.Stage
    var paths: [NamedPath] = []

    static let notListed = "it is not among the flags a source may pass (Documentation/running.md, \"Source directives\")"

    mutating func take(_ word: String) throws(DirectiveFlags.Refusal) {
        if CodeFlags.allows(word, stage) { return }
        if try takeValued(word) { return }
        if stage == .link {
            if word.hasPrefix("-Wl,") { return try takeLinkerList(word) }
            if LinkerFlags.allowsDirectly(word) { return }
            if try takeLinker(word) { return }
            if !word.hasPrefix("-") && !word.hasPrefix("@") && !word.isEmpty {
                paths.append(NamedPath(.input, written: word, path: word))
                return
            }
        }
        throw refusal(word)
    }

    /// `-D`, `-U`, `-I`, `-include` and their kin, whose value may be the next word.
    private mutating func takeValued(_ word: String) throws(DirectiveFlags.Refusal) -> Bool {
        if stage == .compile, let flag = ["-D", "-U"].first(where: word.hasPrefix) {
            _ = try value(of: word, after: flag, check: { !$0.isEmpty && !$0.hasPrefix("-") })
            return true
        }
        let folders = ["-iquote", "-isystem", "-idirafter", "-I"]
        if stage == .compile, let flag = folders.first(where: word.hasPrefix) {
            try takePath(word, after: flag, kind: .folder)
            return true
        }
        if stage == .compile, let flag = ["-include", "-imacros"].first(where: { word == $0 }) {
            try takePath(word, after: flag, kind: .file)
            return true
        }
        return false
    }

    /// A flag whose value is a path (`-I DIR`, `-IDIR`, `--script=FILE`), recorded for the boundary.
    mutating func takePath(_ word: String, after flag: String, kind: NamedPath.Kind) throws(DirectiveFlags.Refusal) {
        let path = try value(of: word, after: flag, check: { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasPrefix("@") })
        let written = word == flag ? "\(flag) \(path)" : word
        paths.append(NamedPath(kind, written: written, path: path))
    }

    /// The value of `flag` in `word` (`-DX`, `--entry=main`) or in the next word (`-D X`), if `check` allows it.
    mutating func value(of word: String, after flag: String, check: (String) -> Bool) throws(DirectiveFlags.Refusal) -> String {
        let rest = String(word.dropFirst(flag.count))
        if rest.isEmpty {
            guard let next = words.popFirst() else {
                throw DirectiveFlags.Refusal(flag: word, reason: "it needs a value after it in the same directive")
            }
            guard check(next) else { throw refusal("\(word) \(next)", "its value is not one a source may pass") }
            return next
        }
        guard check(rest) else { throw refusal(word, "its value is not one a source may pass") }
        return rest
    }

    func refusal(_ word: String, _ reason: String = notListed) -> DirectiveFlags.Refusal {
        DirectiveFlags.Refusal(flag: word, reason: reason)
    }
}
