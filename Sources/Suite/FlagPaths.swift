import Support

/// The files and folders a program's `c-flags` and `link-flags` name (`-I DIR`, `-include FILE`,
/// `-L DIR`, `-T SCRIPT`, an object file, `-Wl,` lists): when it is graded, each that exists
/// must be inside its submission, or the flags would build it from a classmate's files or the
/// reference's. Relative names are the build's, which runs in asmrun's working directory.
enum FlagPaths {
    /// Flags whose value is a path, attached (`-I../x`, `--script=x`) or in the next word.
    private static let pathFlags = [
        "-iwithprefixbefore", "-iwithprefix", "-iprefix", "-idirafter", "-isystem", "-iquote", "-imacros", "-include",
        "--library-path", "--just-symbols", "--script", "-rpath-link", "-rpath", "-l:", "-I", "-L", "-T", "-R",
    ]

    /// The first flag whose path lies outside `bounds`, as written.
    static func firstOutside(_ flags: [String], bounds: SubmissionBounds) -> String? {
        var words = flags[...]
        while let word = words.popFirst() {
            if word.hasPrefix("-Wl,") || word.hasPrefix("-Xlinker,") {
                if let found = firstOutside(word.split(separator: ",").dropFirst().map(String.init), bounds: bounds) { return found }
                continue
            }
            // The path the word names, and how to name the flag in a message.
            var path: String?
            var written = word
            if !word.hasPrefix("-") {
                path = word
            } else if let flag = pathFlags.first(where: { word.hasPrefix($0) }) {
                let rest = word.dropFirst(flag.count).drop { $0 == "=" }
                if rest.isEmpty, let next = words.popFirst() {
                    path = next
                    written += " " + next
                } else {
                    path = String(rest)
                }
            } else if let equals = word.firstIndex(of: "=") {
                path = String(word[word.index(after: equals)...])
            }
            if let path, !path.isEmpty, Files.exists(path), !bounds.holds(path) { return written }
        }
        return nil
    }
}
