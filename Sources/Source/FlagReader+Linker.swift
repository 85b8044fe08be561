extension FlagReader {
    /// ld's options with a value that may be the next word: `-l NAME`, `-L DIR`, `-e SYMBOL`,
    /// `-z KEYWORD`, `-T SCRIPT`, `-m EMULATION`, `-Ttext ADDRESS`, `-dynamic-linker PATH`.
    mutating func takeLinker(_ word: String) throws(DirectiveFlags.Refusal) -> Bool {
        if ["-Ttext", "-Tdata", "-Tbss"].contains(word) {
            _ = try value(of: word, after: word, check: LinkerFlags.isAddress)
            return true
        }
        if word.hasPrefix("-T") && !word.contains("=") {
            try takePath(word, after: "-T", kind: .script)
            return true
        }
        if word.hasPrefix("--script=") {
            try takePath(word, after: "--script=", kind: .script)
            return true
        }
        if word.hasPrefix("-L") {
            try takePath(word, after: "-L", kind: .folder)
            return true
        }
        if word.hasPrefix("-l") {
            let name = try value(of: word, after: "-l", check: Self.isLibrary)
            paths.append(NamedPath(.library, written: word == "-l" ? "-l \(name)" : word, path: name))
            return true
        }
        let valued: [(String, (String) -> Bool)] = [
            ("-e", LinkerFlags.isSymbol), ("--entry", LinkerFlags.isSymbol), ("-u", LinkerFlags.isSymbol),
            ("-z", LinkerFlags.isKeyword), ("-dynamic-linker", LinkerFlags.isSystemPath),
        ]
        for (flag, check) in valued where word == flag || (flag.count == 2 && word.hasPrefix(flag)) {
            _ = try value(of: word, after: flag, check: check)
            return true
        }
        if word == "-m" || word == "-melf_i386" || word == "-melf_x86_64" {
            _ = try value(of: word, after: "-m", check: { ["elf_i386", "elf_x86_64"].contains($0) })
            return true
        }
        return false
    }

    /// `-Wl,-z,noexecstack`: each item a word ld may get from a source, the list complete in
    /// itself (a flag's value in the same list).
    mutating func takeLinkerList(_ word: String) throws(DirectiveFlags.Refusal) {
        let items = word.split(separator: ",", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var list = FlagReader(words: items[...], stage: .link)
        while let item = list.words.popFirst() {
            if LinkerFlags.allowsInList(item) { continue }
            do {
                if try list.takeLinker(item) { continue }
            } catch {
                throw refusal(word, error.reason)
            }
            guard !item.hasPrefix("-"), !item.hasPrefix("@"), !item.isEmpty else {
                throw refusal(
                    word,
                    "`\(item)` is not among the linker options a source may pass "
                        + "(Documentation/running.md, \"Source directives\")")
            }
            list.paths.append(NamedPath(.input, written: word, path: item))
        }
        paths += list.paths.map { named in
            var named = named
            named.written = word
            return named
        }
    }

    /// `m`, `c`, `:libfoo.a`: a library's name, never a path.
    private static func isLibrary(_ name: String) -> Bool {
        let bare = name.hasPrefix(":") ? name.dropFirst() : Substring(name)
        guard let first = bare.first, first != "-" else { return false }
        return bare.allSatisfy(CodeFlags.isNameCharacter)
    }
}
