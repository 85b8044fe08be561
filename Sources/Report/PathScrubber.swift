import Source
import Support

/// Takes the grading machine's paths out of text a student reads: names under the submission
/// become relative to it (`count.asm:3: error: …`), any other absolute path (the reference, the
/// build cache, a scratch folder) becomes its last component.
struct PathScrubber {
    /// Prefixes that name the submission, longest first, each ending in `/`.
    private let prefixes: [String]

    /// For the submission given on the command line as `root`, and the reference at `reference`.
    init(root: String, reference: String? = nil) {
        var names = [root]
        names.append(ProgramFolder.standardize(root))
        if let real = Files.realPath(root) { names.append(real) }
        var prefixes = Set<String>()
        for name in names {
            var trimmed = name
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
            if trimmed != "." && trimmed != "/" { prefixes.insert(trimmed + "/") }
        }
        if let reference {
            for name in [reference, ProgramFolder.standardize(reference)] where name != "." {
                prefixes.insert(name.hasSuffix("/") ? name : name + "/")
            }
        }
        self.prefixes = prefixes.sorted { $0.count > $1.count }
    }

    /// `text` with the submission's prefix dropped from its paths and other absolute paths cut
    /// to their last component.
    func clean(_ text: String) -> String {
        var text = text
        for prefix in prefixes where text.contains(prefix) { text = text.replacing(prefix, with: "") }
        guard text.contains("/") else { return text }
        // An absolute path starts a token: at the start, or after a blank, a quote, `(` or `=`.
        var output = ""
        var token = ""
        var inPath = false
        var previous: Character = " "
        for character in text {
            if inPath {
                if Self.endsPath(character) {
                    output += PathName.lastComponent(of: token)
                    token = ""
                    inPath = false
                    output.append(character)
                } else {
                    token.append(character)
                }
            } else if character == "/" && Self.startsToken(previous) {
                inPath = true
                token = "/"
            } else {
                output.append(character)
            }
            previous = character
        }
        if inPath { output += PathName.lastComponent(of: token) }
        return output
    }

    private static func startsToken(_ character: Character) -> Bool {
        character == " " || character == "\n" || character == "\t" || character == "'" || character == "\"" || character == "("
            || character == "=" || character == "`"
    }

    private static func endsPath(_ character: Character) -> Bool {
        character == " " || character == "\n" || character == "\t" || character == ":" || character == "'" || character == "\""
            || character == ")" || character == "`" || character == ","
    }
}
