/// What `link-flags` may pass to the link step, directly or in `-Wl,` lists: the libraries, the
/// entry point, the kind of executable (static, PIE), its stack and sections, stripping, and
/// folders, objects and scripts the boundary check finds inside the program's folder.
enum LinkerFlags {
    /// Words for the C driver (and harmless to ld, which accepts or refuses them).
    static func allowsDirectly(_ word: String) -> Bool {
        driverWords.contains(word) || linkerWords.contains(word) && !linkerOnly.contains(word)
            || valuedLinkerWord(word)
    }

    /// A word of a `-Wl,` list.
    static func allowsInList(_ word: String) -> Bool {
        linkerWords.contains(word) || DirectiveFlags.linkerKeywords.contains(word) || valuedLinkerWord(word)
    }

    private static let driverWords: Set<String> = [
        "-static", "-static-pie", "-pie", "-no-pie", "-nostdlib", "-nostartfiles", "-nodefaultlibs", "-nolibc", "-rdynamic",
        "-s", "-Bstatic", "-Bdynamic", "-Bsymbolic", "-Bsymbolic-functions", "-Bno-symbolic",
    ]

    /// ld's options without a value that decide nothing about files.
    private static let linkerWords: Set<String> = [
        "-static", "-pie", "-no-pie", "--no-pie", "-s", "--strip-all", "-S", "--strip-debug", "-x", "--discard-all", "-X",
        "--discard-locals", "-N", "--omagic", "-n", "--nmagic", "--gc-sections", "--no-gc-sections", "--as-needed",
        "--no-as-needed", "--export-dynamic", "-E", "--no-undefined", "--allow-multiple-definition", "--start-group",
        "--end-group", "--whole-archive", "--no-whole-archive", "--eh-frame-hdr", "--no-eh-frame-hdr", "--build-id",
        "--no-relax", "--relax", "--warn-common", "--fatal-warnings", "--no-fatal-warnings", "--no-warn-mismatch",
        "--no-warn-execstack", "--warn-execstack", "--no-warn-rwx-segments", "--warn-rwx-segments", "--no-dynamic-linker",
        "-nostdlib", "-O0", "-O1", "-O2", "-O3",
    ]

    /// What the C driver reads as its own: the source must wrap them in `-Wl,`.
    private static let linkerOnly: Set<String> = ["-S", "-x", "-X", "-N", "-n", "-E", "-O0", "-O1", "-O2", "-O3"]

    /// ld's options with an attached value that is a word, an address or a system path.
    private static func valuedLinkerWord(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "="), word.hasPrefix("-") else { return false }
        let value = String(word[word.index(after: equals)...])
        switch String(word[..<equals]) {
        case "--hash-style": return ["gnu", "sysv", "both"].contains(value)
        case "--build-id": return ["none", "md5", "sha1", "uuid"].contains(value) || isAddress(value)
        case "--oformat": return !value.isEmpty && value.allSatisfy(CodeFlags.isNameCharacter)
        case "--unresolved-symbols":
            return ["ignore-all", "report-all", "ignore-in-object-files", "ignore-in-shared-libs"].contains(value)
        case "--entry", "--undefined": return isSymbol(value)
        case "--defsym": return isSymbol(String(value.prefix { $0 != "=" })) && value.allSatisfy { !"/\\@ ".contains($0) }
        case "-Ttext", "-Tdata", "-Tbss", "-Ttext-segment", "-Trodata-segment", "-Tldata-segment", "--image-base":
            return isAddress(value)
        case "--section-start":
            return value.split(separator: "=").count == 2 && isAddress(String(value.split(separator: "=")[1]))
        case "--dynamic-linker": return isSystemPath(value)
        default: return false
        }
    }

    /// `main`, `_start`, `.L1`, `foo@@V1`: a symbol, never a flag or a path.
    static func isSymbol(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || "_.$".contains(first) else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.$@".contains($0)) }
    }

    /// `0x401000`, `4096`.
    static func isAddress(_ text: String) -> Bool {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
        return !digits.isEmpty && digits.allSatisfy(\.isHexDigit)
    }

    /// The system's loaders and libraries (`/lib64/ld-linux-x86-64.so.2`): read by the build
    /// anyway, and no one's secret.
    static func isSystemPath(_ path: String) -> Bool {
        let normal = path.split(separator: "/", omittingEmptySubsequences: true)
        guard path.hasPrefix("/"), !normal.contains(".."), let top = normal.first else { return false }
        return systemFolders.contains(String(top)) || (top == "usr" && normal.count > 1 && usrFolders.contains(String(normal[1])))
    }

    private static let systemFolders: Set<String> = ["lib", "lib32", "lib64", "libx32"]
    private static let usrFolders: Set<String> = [
        "lib", "lib32", "lib64", "libx32", "include", "x86_64-linux-gnu", "i686-linux-gnu",
    ]

    /// `-z` keywords: the stack, relocations and page layout.
    static let keywords: Set<String> = [
        "execstack", "noexecstack", "relro", "norelro", "now", "lazy", "separate-code", "noseparate-code", "text", "notext",
        "defs", "undefs", "muldefs", "nocopyreloc", "origin", "nodelete", "nodlopen", "global", "initfirst", "interpose",
        "ibt", "shstk", "noextern-protected-data",
    ]

    /// `-z KEYWORD` or `max-page-size=N`.
    static func isKeyword(_ text: String) -> Bool {
        if keywords.contains(text) { return true }
        for name in ["max-page-size=", "common-page-size=", "stack-size="] where text.hasPrefix(name) {
            return isAddress(String(text.dropFirst(name.count)))
        }
        return false
    }
}
