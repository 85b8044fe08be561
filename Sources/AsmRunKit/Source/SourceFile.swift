import Foundation

/// What asmrun reads from a `.asm` file before building it: its directives, bitness, entry
/// points and `%include`s. Nothing here runs nasm.
public struct SourceFile: Sendable, Equatable {
    /// The path as the user gave it (kept so nasm's messages match it).
    public let path: String
    /// Settings from `; asmrun:` lines.
    public var settings: ProgramSettings
    /// The source says `bits 32` / `[BITS 32]` / `use32`.
    public let declaresBits32: Bool
    /// The source defines or exports `_start`.
    public let definesStart: Bool
    /// The source defines or exports `main`.
    public let definesMain: Bool
    /// The names given to `%include`, as written.
    public let includes: [String]

    /// The directory holding the file (`.` for a bare name).
    public var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The file name without `.asm`.
    public var stem: String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The object format to use, from the directive or the source's `bits`.
    public var format: ObjectFormat {
        settings.format ?? (declaresBits32 ? .elf32 : .elf64)
    }

    /// The link mode to use once `auto` is decided.
    public var resolvedLink: LinkMode {
        switch settings.link {
        case .auto: definesMain && !definesStart ? .cc : .ld
        case let mode: mode
        }
    }

    /// Reads and analyses `path`.
    public static func load(_ path: String) throws -> SourceFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError(path: path, problem: "no such file", fix: "check the path")
        }
        if isDirectory.boolValue {
            throw SourceError(path: path, problem: "is a directory", fix: "name a .asm file")
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // A FIFO or device would block the read (or never end): refuse it instead of hanging.
            throw SourceError(path: path, problem: "is not a regular file", fix: "name a .asm file")
        }
        if access(path, R_OK) != 0 {
            throw SourceError(path: path, problem: "cannot be read (permission denied)", fix: "check its permissions")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SourceError(path: path, problem: "cannot be read", fix: "check its permissions")
        }
        if data.isEmpty {
            throw SourceError(path: path, problem: "is empty", fix: "write a program into it")
        }
        if data.prefix(8192).contains(0) {
            throw SourceError(
                path: path, problem: "is a binary file, not assembly source",
                fix: "name the .asm source instead")
        }
        return try SourceFile(path: path, text: String(decoding: data, as: UTF8.self))
    }

    /// Analyses source text.
    public init(path: String, text: String) throws {
        self.path = path
        var settings = ProgramSettings()
        var bits32 = false
        var start = false
        var main = false
        var includes: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix(";") {
                if let directive = Self.directive(in: line) {
                    try settings.apply(directive, at: "\(path):\(index + 1)")
                }
                continue
            }
            let code = Self.stripComment(line).lowercased()
            if code.isEmpty { continue }
            let words = code.split(whereSeparator: { " \t,[]".contains($0) })
            if words.count >= 2, words[0] == "bits", words[1] == "32" { bits32 = true }
            if words.first == "use32" { bits32 = true }
            if words.first == "global" || words.first == "export" {
                let names = words.dropFirst().map { $0.split(separator: ":").first.map(String.init) ?? "" }
                if names.contains("_start") { start = true }
                if names.contains("main") { main = true }
            }
            if code.hasPrefix("_start:") { start = true }
            if code.hasPrefix("main:") { main = true }
            if code.hasPrefix("%include") {
                let rest = Self.stripComment(line).dropFirst("%include".count)
                    .trimmingCharacters(in: .whitespaces)
                if let name = Self.quoted(rest) { includes.append(name) }
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        settings.includeDirectories = settings.includeDirectories.map { directory in
            directory.hasPrefix("/") || folder.isEmpty ? directory : folder + "/" + directory
        }
        self.settings = settings
        declaresBits32 = bits32
        definesStart = start
        definesMain = main
        self.includes = includes
    }

    /// `format elf32` from `; asmrun: format elf32`.
    static func directive(in line: String) -> Substring? {
        let body = line.drop(while: { $0 == ";" }).drop(while: { $0 == " " || $0 == "\t" })
        guard body.hasPrefix("asmrun:") else { return nil }
        return body.dropFirst("asmrun:".count).drop(while: { $0 == " " || $0 == "\t" })
    }

    private static func stripComment(_ line: String) -> String {
        var inQuote: Character?
        for (offset, character) in line.enumerated() {
            if let open = inQuote {
                if character == open { inQuote = nil }
            } else if character == "\"" || character == "'" || character == "`" {
                inQuote = character
            } else if character == ";" {
                return String(line.prefix(offset)).trimmingCharacters(in: .whitespaces)
            }
        }
        return line
    }

    private static func quoted(_ text: String) -> String? {
        guard let open = text.first, open == "\"" || open == "'" || open == "<" else { return nil }
        let close: Character = open == "<" ? ">" : open
        let body = text.dropFirst()
        guard let end = body.firstIndex(of: close) else { return nil }
        return String(body[..<end])
    }
}

/// A problem with an input file, naming the file and the fix.
public struct SourceError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// The file (with `:line` where known).
    public let path: String
    /// What is wrong.
    public let problem: String
    /// What to do about it.
    public let fix: String

    /// Creates an error.
    public init(path: String, problem: String, fix: String) {
        self.path = path
        self.problem = problem
        self.fix = fix
    }

    /// `asm/x.asm: is empty; write a program into it`.
    public var description: String { "\(path): \(problem); \(fix)" }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
