import Support

extension ProgramBounds {
    /// The first path `source`'s directives name that lies outside, or is not what the build may
    /// be given there: an "object" that is a linker script in disguise, a script that names files.
    func namedRefusal(_ source: SourceFile) -> Refusal? {
        let named = source.settings.namedPaths
        let folders = named.filter { $0.kind == .folder && !$0.relativeToSource }.map(\.path)
        for path in named {
            let at = FileLocation(source.path, line: path.line)
            switch path.kind {
            case .source:
                if !holds(path.path) {
                    return Refusal(kind: .with, source: at, named: Self.relative(path.path, to: source.directory))
                }
            case .folder, .file:
                if Files.exists(path.path) && !holds(path.path) && !LinkerFlags.isSystemPath(Files.realPath(path.path) ?? path.path) {
                    return Refusal(kind: .flag, source: at, named: path.written)
                }
            case .input, .script:
                guard Files.exists(path.path) else { continue }
                if !holds(path.path) { return Refusal(kind: .flag, source: at, named: path.written) }
                if path.kind == .input && !Self.isObject(path.path) { return Refusal(kind: .notObject, source: at, named: path.written) }
                if path.kind == .script, let command = Self.fileCommand(path.path) {
                    return Refusal(kind: .script, source: at, named: "\(path.written)` (`\(command)`")
                }
            case .library:
                for folder in folders {
                    let names = path.path.hasPrefix(":") ? [String(path.path.dropFirst())] : ["lib\(path.path).so", "lib\(path.path).a"]
                    for name in names.map({ folder + "/" + $0 }) where Files.exists(name) && !Self.isObject(name) {
                        return Refusal(kind: .notObject, source: at, named: "\(path.written)` (\(name)")
                    }
                }
            }
        }
        return nil
    }

    /// An ELF file or a (not thin) `ar` archive: ld reads any other input as a linker script.
    static func isObject(_ path: String) -> Bool {
        guard let bytes = try? Files.read(path) else { return false }
        return bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]) || bytes.starts(with: Array("!<arch>\n".utf8))
    }

    /// The first command in the linker script at `path` that makes ld read or write a file the
    /// script names (`INCLUDE`, `INPUT`, `GROUP`, `SEARCH_DIR`, `OUTPUT`, `STARTUP`).
    static func fileCommand(_ path: String) -> String? {
        guard let bytes = try? Files.read(path) else { return "unreadable" }
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        return words.lazy.map(String.init).first { scriptFileCommands.contains($0.uppercased()) }
    }

    private static let scriptFileCommands: Set<String> = [
        "INCLUDE", "INPUT", "GROUP", "SEARCH_DIR", "OUTPUT", "STARTUP", "AS_NEEDED",
    ]
}
