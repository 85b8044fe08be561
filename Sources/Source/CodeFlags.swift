/// The compiler flags that only shape the code a directive may pass, to either stage: `-O…`,
/// `-g…`, `-W…` warnings, `-std=…`, `-m…` machine switches and `-f…` code-generation switches.
/// None of them names a file; passed to ld instead (`link-flags` under `link ld`), each is refused
/// by ld or means no more than a harmless ld option (`-O2`, `-g`, `-s`).
enum CodeFlags {
    static func allows(_ word: String, _ stage: DirectiveFlags.Stage) -> Bool {
        if exact.contains(word) { return true }
        if word.hasPrefix("-O") { return optimizations.contains(String(word.dropFirst(2))) }
        if word.hasPrefix("-g") { return debugFormats.contains(String(word.dropFirst(2))) }
        if word.hasPrefix("-std=") { return word.count > 5 && word.dropFirst(5).allSatisfy(isNameCharacter) }
        if word.hasPrefix("-W") { return warning(word.dropFirst(2)) }
        if word.hasPrefix("-m") { return machine(word.dropFirst(2)) }
        if word.hasPrefix("-fuse-ld=") { return stage == .link && ["bfd", "gold", "lld"].contains(word.dropFirst(9)) }
        if word.hasPrefix("-f") { return codeGeneration(word.dropFirst(2)) }
        return false
    }

    private static let exact: Set<String> = ["-w", "-pedantic", "-pedantic-errors", "-ansi", "-pthread"]
    private static let optimizations: Set<String> = ["", "0", "1", "2", "3", "s", "g", "z", "fast"]
    private static let debugFormats: Set<String> = [
        "", "0", "1", "2", "3", "gdb", "gdb0", "gdb1", "gdb2", "gdb3", "dwarf", "dwarf-2", "dwarf-3", "dwarf-4", "dwarf-5",
    ]

    /// `-Wall`, `-Wno-unused`, `-Werror=format`: a warning, never `-Wl,` `-Wa,` `-Wp,` (a list of
    /// options for another tool) nor anything with a comma or a path.
    private static func warning(_ rest: Substring) -> Bool {
        rest.allSatisfy { isNameCharacter($0) || $0 == "=" }
    }

    /// `-m32`, `-march=native`, `-mno-red-zone`, `-masm=intel`: machine switches (but `-mllvm`,
    /// which hands clang's next word to LLVM).
    private static func machine(_ rest: Substring) -> Bool {
        guard let first = rest.first, first.isLetter || first.isNumber, rest != "llvm" else { return false }
        return rest.allSatisfy { isNameCharacter($0) || $0 == "=" }
    }

    /// `-fno-pie`, `-fPIC`, `-fno-stack-protector`, `-fvisibility=hidden`: a switch, or one of the
    /// listed switches with a value; never one that loads a plugin, reads a profile or writes a
    /// file of its own (dumps, coverage notes, records, dependency files).
    private static func codeGeneration(_ rest: Substring) -> Bool {
        let name = rest.hasPrefix("no-") ? rest.dropFirst(3) : rest
        guard let first = name.first, first.isLetter, !refusedGeneration.contains(where: { name.hasPrefix($0) }) else { return false }
        guard let equals = name.firstIndex(of: "=") else { return name.allSatisfy(isNameCharacter) }
        let value = name[name.index(after: equals)...]
        return valuedGeneration.contains(String(name[..<equals])) && !value.isEmpty
            && value.allSatisfy { isNameCharacter($0) || $0 == "," }
    }

    /// `-f` switches that load, read or write files, or run programs: refused by prefix.
    static let refusedGeneration = [
        "plugin", "dump", "profile", "auto-profile", "test-coverage", "coverage", "branch-probabilities", "save-", "stack-usage",
        "callgraph-info", "compare-debug", "opt-info", "pch", "module", "crash", "offload", "deps-", "lto", "use-", "self-test",
        "record-", "debug-prefix-map", "file-prefix-map", "macro-prefix-map", "diagnostics-add", "diagnostics-set", "time-",
        "sanitize-blacklist", "sanitize-ignorelist", "sanitize-coverage-", "instrument-functions-exclude", "dead-strip",
        "auto-inc", "gnu-tm", "preprocessed", "working-directory", "fdo",
    ]

    /// `-f` switches that take a value (a word, never a path).
    static let valuedGeneration: Set<String> = [
        "visibility", "cf-protection", "tls-model", "sanitize", "sanitize-recover", "patchable-function-entry", "max-errors",
        "diagnostics-color", "message-length", "align-functions", "align-loops", "align-jumps", "align-labels",
        "excess-precision", "fp-contract", "zero-call-used-regs", "strict-flex-arrays", "inline-limit", "abi-version",
        "trivial-auto-var-init", "stack-reuse", "permitted-flt-eval-methods", "stack-protector", "PIC", "pic", "PIE", "pie",
    ]

    /// Letters, digits and `-_.+`: a flag's name or a value that is not a path.
    static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.+".contains(character))
    }
}
