import Source
import Support

/// No object defines an entry point: a `_start` without its `global`, a near miss (`start`,
/// `_Start`, `main_`), or a file of functions without its driver.
package struct EntryPointMissing: AsmRunError, Equatable {
    package let program: String
    package let sources: [String]
    /// `_start` or `main` as a local label: defined, but the linker cannot see it.
    package let hidden: String?
    /// A label that is probably a misspelt entry point, the entry point it looks like, and
    /// whether it is global (a local `start:` may as well be a loop's label).
    let nearMiss: (label: String, entry: String, global: Bool)?

    init(program: Program, labels: Set<String>, defined: Set<String>) {
        self.program = program.path
        sources = program.files
        hidden = ["_start", "main"].first { labels.contains($0) }
        nearMiss =
            (defined.sorted() + labels.sorted()).lazy.compactMap { label in
                Self.entry(resembling: label).map { (label, $0, defined.contains(label)) }
            }.first
    }

    /// `_start` for `start`, `_Start`, `START`, `__start`, `start_`; `main` for `Main`, `_main`,
    /// `main_`: the same letters once case and underscores are set aside, but not the name itself.
    static func entry(resembling label: String) -> String? {
        let letters = label.lowercased().filter { $0 != "_" }
        guard label != "_start", label != "main" else { return nil }
        return letters == "start" ? "_start" : letters == "main" ? "main" : nil
    }

    package static func == (left: Self, right: Self) -> Bool {
        left.program == right.program && left.sources == right.sources && left.hidden == right.hidden
            && left.nearMiss?.label == right.nearMiss?.label
    }

    package var location: FileLocation? { FileLocation(program) }

    package var problem: String {
        if let hidden { return "`\(hidden)` is a label here but not global, so the linker cannot see it" }
        if let nearMiss { return "no entry point: it defines `\(nearMiss.label.displayEscaped)`, not `\(nearMiss.entry)`" }
        if sources.count == 1 { return "no entry point: it defines neither `_start` nor `main`" }
        return "no entry point: none of \(sources.map(\.displayEscaped).joined(separator: ", ")) defines `_start` or `main`"
    }

    package var fix: String? {
        if let hidden { return "add `global \(hidden)` above it" }
        if let nearMiss, nearMiss.global { return "did you mean `\(nearMiss.entry)`? rename the label and its `global`" }
        if let nearMiss {
            return "did you mean `\(nearMiss.entry)`? rename the label and add `global \(nearMiss.entry)`; "
                + "a file of functions needs a C file with `main` instead"
        }
        return
            "a file of functions needs a C driver: add a C file with `main` (asmrun \(program) driver.c, or `; asmrun: with driver.c`), or define `_start`"
    }
}

/// Two objects define the same entry point: two programs named together, or two C files with
/// `main`. Said before the linker's "multiple definition" lines.
struct EntryPointTwice: AsmRunError, Equatable {
    let program: String
    let entry: String
    let sources: [String]

    init(program: Program, entry: String, sources: [String]) {
        self.program = program.path
        self.entry = entry
        self.sources = sources
    }

    var problem: String {
        "\(sources.map(\.displayEscaped).joined(separator: " and ")) each define `\(entry)`: a program has one"
    }

    var fix: String? {
        entry == "_start"
            ? "they are separate programs: run them one at a time (asmrun \(sources[0].displayEscaped))"
            : "name the one to link: asmrun \(program.displayEscaped) \(sources[0].displayEscaped), or move the others away"
    }
}
