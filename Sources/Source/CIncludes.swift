import Support

/// What a C file pulls in: each `#include` that names a file is checked against the program's
/// bounds; when graded, a computed `#include MACRO` and `.incbin` in inline assembly are refused
/// too (what they read cannot be checked: the contained build is what stops them otherwise). A
/// look at the lines the preprocessor reads (`CSourceLines`: continued lines joined, comments
/// a space), not a preprocessor: it errs on the side of refusing, and a `.incbin` made by macro
/// pasting is for the contained build to stop.
enum CIncludes {
    /// The first thing `path` includes that is, or may be, outside `bounds`.
    static func firstOutside(_ path: String, bounds: ProgramBounds) -> ProgramBounds.Refusal? {
        guard let bytes = try? Files.read(path) else { return nil }
        let folder = PathName.directory(of: path)
        let lines = CSourceLines(bytes).lines
        if bounds.graded, let line = incbinLine(lines) {
            return .init(kind: .incbin, source: FileLocation(path, line: line), named: ".incbin")
        }
        for line in lines {
            let at = FileLocation(path, line: line.number)
            guard let target = includeTarget(line.code) else { continue }
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

    /// The line of the first `.incbin`, also one split by a continued line or between adjacent
    /// string literals (`".inc" "bin"`, which the compiler joins).
    private static func incbinLine(_ lines: [CSourceLines.Line]) -> Int? {
        if let line = lines.first(where: { $0.spliced.contains(".incbin") }) { return line.number }
        let joined = lines.map(\.code).joined(separator: "\n")
        guard joined.replacing(/"[ \t\n]*"/, with: "").contains(".incbin") else { return nil }
        // Where the pieces start: the first line with `.inc`, else the first.
        return lines.first { $0.code.contains(".inc") }?.number ?? lines.first?.number ?? 1
    }

    /// What `#include` (or `#include_next`, `#import`) on `line` names, if it is one.
    private static func includeTarget(_ line: String) -> Target? {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        // `%:` is the digraph of `#`.
        if rest.hasPrefix("%:") {
            rest = rest.dropFirst(2)
        } else if rest.first == "#" {
            rest = rest.dropFirst()
        } else {
            return nil
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
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
