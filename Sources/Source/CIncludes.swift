import Support

/// What a C file pulls in: each `#include` that names a file is checked against the program's
/// bounds; when graded, a computed `#include MACRO` and `.incbin` in inline assembly are refused
/// too (what they read cannot be checked: the contained build is what stops them otherwise). A
/// line-by-line look, not a preprocessor: it errs on the side of refusing.
enum CIncludes {
    /// The first thing `path` includes that is, or may be, outside `bounds`.
    static func firstOutside(_ path: String, bounds: ProgramBounds) -> ProgramBounds.Refusal? {
        guard let bytes = try? Files.read(path) else { return nil }
        let folder = PathName.directory(of: path)
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: line, as: UTF8.self)
            let at = FileLocation(path, line: index + 1)
            if bounds.graded && text.contains(".incbin") { return .init(kind: .incbin, source: at, named: ".incbin") }
            guard let target = includeTarget(text) else { continue }
            switch target {
            case .computed:
                if bounds.graded { return .init(kind: .computedInclude, source: at, named: "") }
            case .quoted(let name):
                let local = name.hasPrefix("/") ? name : (folder.isEmpty ? name : folder + "/" + name)
                if Files.exists(local) ? !bounds.holds(local) : hasParent(name) { return .init(kind: .include, source: at, named: name) }
            case .angled(let name):
                if name.hasPrefix("/") || hasParent(name) { return .init(kind: .include, source: at, named: name) }
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
