import Glibc
import Support

/// A `.asm` file as asmrun reads it before building, in one streaming pass: the digest of its
/// bytes (the cache key's; checked again after nasm ran), its directives, bitness, entry points
/// and the files it includes. The text itself is not kept: a suite holds every program.
package struct SourceFile: Sendable, Equatable {
    /// The path as the user gave it (kept so nasm's messages match it).
    package let path: String
    /// SHA-256 of the bytes scanned.
    package let digest: String
    /// The file's status when it was read (none for text given as such): whether it changed
    /// since, without reading it again.
    package private(set) var snapshot: FileSnapshot?
    /// Settings from `; asmrun:` lines, then from the command line.
    package var settings: ProgramSettings
    /// The source says `bits 32` / `[BITS 32]` / `use32`.
    let declaresBits32: Bool
    /// The source defines or exports `_start`.
    package let definesStart: Bool
    /// The source defines or exports `main`.
    package let definesMain: Bool
    /// Names given to `%include` and `incbin`, as written.
    package let includes: [String]
    /// The line of each of `includes`.
    let includeLines: [Int]
    /// Uses `int 0x80`, the 32-bit system call interface.
    let usesInt80: Bool
    /// What nasm reads besides the files it names: environment variables, the clock, files named
    /// through macros.
    package let inputs: SourceInputs
    /// The first line that uses esp or ebp as the stack pointer (`[esp+4]`, `add esp, 8`,
    /// `mov ebp, esp`), as 32-bit code does.
    let stackLine: Int?
    /// The first line with `syscall` or a 64-bit register: it is not 32-bit code.
    let sixtyFourBitLine: Int?

    /// Uses `syscall` or names a 64-bit register.
    package var uses64BitCode: Bool { sixtyFourBitLine != nil }

    /// The directory holding the file (`.` for a bare name).
    package var directory: String {
        let parent = PathName.directory(of: path)
        return parent.isEmpty ? "." : parent
    }

    package var stem: String {
        PathName.removingExtension(PathName.lastComponent(of: path))
    }

    /// The link mode to use once `auto` is decided.
    var resolvedLink: LinkMode {
        switch settings.link {
        case .auto: definesMain && !definesStart ? .cc : .ld
        case let mode: mode
        }
    }

    /// Reads and analyses `path` in one pass through a small buffer.
    package static func load(_ path: String) throws -> SourceFile {
        var scan = SourceScan()
        var digest = SHA256()
        var size = 0
        var binary = false
        let started = FileSnapshot.now()
        let status: stat
        do {
            status = try Files.stream(path) { chunk in
                if size < 8192, let base = chunk.baseAddress, memchr(base, 0, min(chunk.count, 8192 - size)) != nil {
                    binary = true
                }
                size += chunk.count
                digest.update(chunk)
                if !binary { scan.feed(chunk) }
            }
        } catch {
            let fix =
                switch error {
                case .missing: "check the path"
                case .directory, .notRegular: "name a .asm file"
                case .denied, .failed: "check its permissions"
                }
            throw FileError(path: path, problem: error.problem, fix: fix)
        }
        if size == 0 {
            throw FileError(path: path, problem: "is empty", fix: "write a program into it")
        }
        if binary {
            throw FileError(path: path, problem: "is a binary file, not assembly source", fix: "name the .asm source instead")
        }
        scan.finish()
        var file = try SourceFile(path: path, digest: digest.hexDigest(), scan: scan)
        file.snapshot = FileSnapshot(status, readStarted: started)
        return file
    }

    /// Analyses source text (`path` names it in errors and gives the include folder).
    package init(path: String, text: String) throws {
        try self.init(path: path, digest: SHA256.hex(Array(text.utf8)), scan: SourceScan(Array(text.utf8)))
    }

    init(path: String, digest: String, scan: SourceScan) throws {
        self.path = path
        self.digest = digest
        var settings = ProgramSettings()
        for directive in scan.directives {
            try settings.apply(directive.text, at: FileLocation(path, line: directive.line))
        }
        let folder = PathName.directory(of: path)
        let relative = { (name: String) in name.hasPrefix("/") || folder.isEmpty ? name : folder + "/" + name }
        settings.includeDirectories = settings.includeDirectories.map(relative)
        settings.sources = settings.sources.map(relative)
        for index in settings.namedPaths.indices where settings.namedPaths[index].relativeToSource {
            settings.namedPaths[index].path = relative(settings.namedPaths[index].path)
        }
        self.settings = settings
        declaresBits32 = scan.declaresBits32
        definesStart = scan.definesStart
        definesMain = scan.definesMain
        includes = scan.includes
        includeLines = scan.includeLines
        usesInt80 = scan.usesInt80
        stackLine = scan.stackLine
        sixtyFourBitLine = scan.sixtyFourBitLine
        inputs = scan.inputs
    }
}
