import Support

/// A `.asm` file as asmrun reads it before building: its bytes (read once; the cache key is
/// their digest), its directives, bitness, entry points and the files it includes.
package struct SourceFile: Sendable, Equatable {
    /// The path as the user gave it (kept so nasm's messages match it).
    package let path: String
    package let bytes: [UInt8]
    /// Settings from `; asmrun:` lines, then from the command line.
    package var settings: ProgramSettings
    /// The source says `bits 32` / `[BITS 32]` / `use32`.
    package let declaresBits32: Bool
    /// The source defines or exports `_start`.
    package let definesStart: Bool
    /// The source defines or exports `main`.
    package let definesMain: Bool
    /// Names given to `%include` and `incbin`, as written.
    package let includes: [String]

    /// The directory holding the file (`.` for a bare name).
    package var directory: String {
        let parent = PathName.directory(of: path)
        return parent.isEmpty ? "." : parent
    }

    package var stem: String {
        PathName.removingExtension(PathName.lastComponent(of: path))
    }

    /// The object format to use, from the directive or the source's `bits`.
    package var format: ObjectFormat {
        settings.format ?? (declaresBits32 ? .elf32 : .elf64)
    }

    /// The link mode to use once `auto` is decided.
    package var resolvedLink: LinkMode {
        switch settings.link {
        case .auto: definesMain && !definesStart ? .cc : .ld
        case let mode: mode
        }
    }

    package static func load(_ path: String) throws -> SourceFile {
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path)
        } catch {
            let fix =
                switch error {
                case .missing: "check the path"
                case .directory, .notRegular: "name a .asm file"
                case .denied, .failed: "check its permissions"
                }
            throw FileError(path: path, problem: error.problem, fix: fix)
        }
        if bytes.isEmpty {
            throw FileError(path: path, problem: "is empty", fix: "write a program into it")
        }
        if bytes.prefix(8192).contains(0) {
            throw FileError(path: path, problem: "is a binary file, not assembly source", fix: "name the .asm source instead")
        }
        return try SourceFile(path: path, bytes: bytes)
    }

    /// Analyses source text (`path` names it in errors and gives the include folder).
    package init(path: String, text: String) throws {
        try self.init(path: path, bytes: Array(text.utf8))
    }

    init(path: String, bytes: [UInt8]) throws {
        self.path = path
        self.bytes = bytes
        let scan = SourceScan(bytes)
        var settings = ProgramSettings()
        for directive in scan.directives {
            try settings.apply(directive.text, at: FileLocation(path, line: directive.line))
        }
        let folder = PathName.directory(of: path)
        settings.includeDirectories = settings.includeDirectories.map { directory in
            directory.hasPrefix("/") || folder.isEmpty ? directory : folder + "/" + directory
        }
        self.settings = settings
        declaresBits32 = scan.declaresBits32
        definesStart = scan.definesStart
        definesMain = scan.definesMain
        includes = scan.includes
    }
}
