import Support

/// What a C file of a graded submission pulls in: each `#include` is checked against the
/// submission's bounds, a computed `#include MACRO` and `.incbin` in inline assembly are
/// refused (what they read cannot be checked). A line-by-line look, not a preprocessor: it errs
/// on the side of refusing.
enum CIncludes {
    /// The first thing `path` includes that is, or may be, outside `bounds`.
    static func firstOutside(_ path: String, bounds: SubmissionBounds) -> (kind: SubmissionBounds.Refusal.Kind, name: String)? {
        guard let bytes = try? Files.read(path) else { return nil }
        let folder = PathName.directory(of: path)
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self)
            if text.contains(".incbin") { return (.incbin, ".incbin") }
            guard let target = includeTarget(text) else { continue }
            switch target {
            case .computed: return (.computedInclude, "")
            case .quoted(let name):
                let local = name.hasPrefix("/") ? name : (folder.isEmpty ? name : folder + "/" + name)
                if Files.exists(local) ? !bounds.holds(local) : hasParent(name) { return (.include, name) }
            case .angled(let name):
                if name.hasPrefix("/") || hasParent(name) { return (.include, name) }
            }
        }
        return nil
    }

    private enum Target { case quoted(String), angled(String), computed }

    /// What `#include` (or `#include_next`, `#import`) on `line` names, if it is one.
    private static func includeTarget(_ line: String) -> Target? {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        guard rest.first == "#" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard let word = ["include_next", "include", "import"].first(where: { rest.hasPrefix($0) }) else { return nil }
        rest = rest.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
        guard let open = rest.first else { return nil }
        let close: Character = open == "<" ? ">" : "\""
        guard open == "\"" || open == "<", let end = rest.dropFirst().firstIndex(of: close) else { return .computed }
        let name = String(rest[rest.index(after: rest.startIndex)..<end])
        return open == "<" ? .angled(name) : .quoted(name)
    }

    private static func hasParent(_ name: String) -> Bool {
        name.split(separator: "/").contains("..")
    }
}
