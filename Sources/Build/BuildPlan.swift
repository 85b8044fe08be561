import Processes
import Source
import Support

/// One source compiled to one object, as a plain command value.
package struct CompileStep: Sendable, Equatable {
    package enum Language: String, Sendable { case assembly, c }

    let source: String
    let language: Language
    var command: Command
    let object: String
    /// The tool's `-MD` output: the files it read (nasm 2.16.01 leaves out its `%include`s there;
    /// `listing` names them).
    let dependencyFile: String?
    /// `nasm -M -MF FILE`: the files nasm reads, every `%include` among them, without assembling;
    /// run when the source names a file in a way asmrun's scan cannot follow.
    var listing: Command? = nil
}

/// A program's build, planned before anything runs: one compile step per source and what the
/// link needs. The link command itself waits for the objects' symbols (`LinkDecision`).
package struct BuildPlan: Sendable, Equatable {
    var compiles: [CompileStep]
    /// `.o` and `.a` files linked as they are.
    package var prebuilt: [String]
    package var format: ObjectFormat
    package var executable: String
    /// The link mode asked for (`auto` is decided from the symbols).
    var linkMode: LinkMode
    package var linkFlags: [String]
    /// Assembled with `-g -F dwarf` and compiled with `-g`: DWARF line tables for gdb. Off, the
    /// build is the classic `nasm -f FORMAT … && ld …`, whose file bytes a program may see (the
    /// rest of the page after `.data` is mapped from the file: a debug build puts
    /// `.debug_aranges` there, the classic one `.symtab`).
    package var debugInfo: Bool
    /// The linker's `--dependency-file`: the libraries and start files it read.
    var linkDependencies: String

    /// Plans `program` with its objects and executable in `directory`, names starting `prefix`.
    package init(program: Program, toolchain: Toolchain, directory: String, prefix: String, debugInfo: Bool = false) throws {
        self.debugInfo = debugInfo
        format = program.format
        linkMode = program.settings.link
        linkFlags = program.settings.linkFlags
        prebuilt = program.prebuilt
        executable = directory + "/" + prefix + program.name
        linkDependencies = directory + "/" + prefix + "link.d"
        var compiles: [CompileStep] = []
        for (index, source) in program.assembly.enumerated() {
            let object = directory + "/\(prefix)\(index)-\(source.stem).o"
            compiles.append(
                try Self.assemble(source, of: program, format: format, toolchain: toolchain, object: object, debugInfo: debugInfo))
        }
        for (index, source) in program.cSources.enumerated() {
            let stem = PathName.removingExtension(PathName.lastComponent(of: source.path))
            let object = directory + "/\(prefix)c\(index)-\(stem).o"
            compiles.append(
                try Self.compile(source, of: program, format: format, toolchain: toolchain, object: object, debugInfo: debugInfo))
        }
        self.compiles = compiles
    }

    /// `nasm -f FORMAT [-g -F dwarf] -I … -D … -o OBJECT SOURCE`.
    private static func assemble(
        _ source: SourceFile, of program: Program, format: ObjectFormat, toolchain: Toolchain, object: String, debugInfo: Bool
    ) throws -> CompileStep {
        var arguments = ["-f", format.rawValue] + (debugInfo ? ["-g", "-F", "dwarf"] : [])
        var defines = program.settings.defines
        if source.path != program.main.path { defines += source.settings.defines }
        for directory in program.includeDirectories(for: source) {
            arguments += ["-I", directory.hasSuffix("/") ? directory : directory + "/"]
        }
        arguments += defines.map { "-D" + $0 }
        let nasm = try toolchain.nasm()
        let dependencies = object + ".d"
        var step = CompileStep(
            source: source.path, language: .assembly,
            command: Command(nasm, arguments + ["-MD", dependencies, "-o", object, operand(source.path)]), object: object,
            dependencyFile: dependencies)
        step.listing = Command(nasm, arguments + ["-M", "-MF", dependencies, operand(source.path)])
        return step
    }

    /// `cc -c [-m32] [-g] FLAGS -MD -MF DEPS -o OBJECT SOURCE`.
    private static func compile(
        _ source: CSourceFile, of program: Program, format: ObjectFormat, toolchain: Toolchain, object: String, debugInfo: Bool
    ) throws -> CompileStep {
        let bits = format == .elf32 && toolchain.host.runsX86_64 ? ["-m32"] : []
        let dependencies = object + ".d"
        let arguments =
            bits + ["-c"] + (debugInfo ? ["-g"] : []) + stableFileMacro(source.path, in: program) + program.settings.cFlags + [
                "-MD", "-MF", dependencies, "-o", object, operand(source.path),
            ]
        return CompileStep(
            source: source.path, language: .c, command: Command(try toolchain.compilerDriver(for: format), arguments),
            object: object, dependencyFile: dependencies)
    }

    /// `-fmacro-prefix-map=FOLDER/=` for a C file in the program's folder: `__FILE__` (and so a
    /// test framework's `leap_test.c:12:` lines) is the path inside that folder whichever folder
    /// asmrun runs from (it was `./leap_test.c` from inside, `leap/leap_test.c` from above). The
    /// debug information keeps the path as given, which gdb and crash reports open.
    static func stableFileMacro(_ path: String, in program: Program) -> [String] {
        let folder = program.isFolder ? program.path : program.directory
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix), path.count > prefix.count, !prefix.contains("=") else { return [] }
        return ["-fmacro-prefix-map=" + prefix + "="]
    }

    /// The environment variables that change what the tool of `language` makes (nasm's default
    /// options; the C compiler's search paths and build date), part of every cache key.
    package static func environment(of language: CompileStep.Language) -> [String] {
        switch language {
        case .assembly: ["NASMENV"]
        case .c: ["CPATH", "C_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "SOURCE_DATE_EPOCH"]
        }
    }

    /// A path as a tool's operand: `./-E.asm` and `./@args.c`, never an option or a response file.
    package static func operand(_ path: String) -> String { path.hasPrefix("-") || path.hasPrefix("@") ? "./" + path : path }
}
