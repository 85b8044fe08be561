import Sandbox
import Source
import Support

/// One source compiled to one object, as a plain command value.
package struct CompileStep: Sendable, Equatable {
    package enum Language: String, Sendable { case assembly, c }

    package let source: String
    package let language: Language
    package var command: Command
    package let object: String
    /// The C compiler's `-MMD` output: the headers the source included.
    package let dependencyFile: String?
}

/// A program's build, planned before anything runs: one compile step per source and what the
/// link needs. The link command itself waits for the objects' symbols (`LinkDecision`).
package struct BuildPlan: Sendable, Equatable {
    package var compiles: [CompileStep]
    /// `.o` and `.a` files linked as they are.
    package var prebuilt: [String]
    package var format: ObjectFormat
    package var executable: String
    /// The link mode asked for (`auto` is decided from the symbols).
    package var linkMode: LinkMode
    package var linkFlags: [String]
    /// Assembled with `-g -F dwarf` and compiled with `-g`: DWARF line tables for gdb. Off, the
    /// build is the classic `nasm -f FORMAT … && ld …`, whose file bytes a program may see (the
    /// rest of the page after `.data` is mapped from the file: a debug build puts
    /// `.debug_aranges` there, the classic one `.symtab`).
    package var debugInfo: Bool

    /// Plans `program` with its objects and executable in `directory`, names starting `prefix`.
    package init(program: Program, toolchain: Toolchain, directory: String, prefix: String, debugInfo: Bool = false) throws {
        self.debugInfo = debugInfo
        format = program.format
        linkMode = program.settings.link
        linkFlags = program.settings.linkFlags
        prebuilt = program.prebuilt
        executable = directory + "/" + prefix + program.name
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
        arguments += ["-o", object, operand(source.path)]
        return CompileStep(
            source: source.path, language: .assembly, command: Command(try toolchain.nasm(), arguments), object: object,
            dependencyFile: nil)
    }

    /// `cc -c [-m32] [-g] FLAGS -MMD -MF DEPS -o OBJECT SOURCE`.
    private static func compile(
        _ source: CSourceFile, of program: Program, format: ObjectFormat, toolchain: Toolchain, object: String, debugInfo: Bool
    ) throws -> CompileStep {
        let bits = format == .elf32 && toolchain.host.runsX86_64 ? ["-m32"] : []
        let dependencies = object + ".d"
        let arguments =
            bits + ["-c"] + (debugInfo ? ["-g"] : []) + program.settings.cFlags + [
                "-MMD", "-MF", dependencies, "-o", object, operand(source.path),
            ]
        return CompileStep(
            source: source.path, language: .c, command: Command(try toolchain.compilerDriver(for: format), arguments),
            object: object, dependencyFile: dependencies)
    }

    /// A path as a tool's operand: `./-E.asm` and `./@args.c`, never an option or a response file.
    package static func operand(_ path: String) -> String { path.hasPrefix("-") || path.hasPrefix("@") ? "./" + path : path }
}
