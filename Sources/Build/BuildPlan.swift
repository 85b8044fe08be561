import Sandbox
import Source

/// The nasm and link command lines for one program, computed without running anything.
package struct BuildPlan: Sendable, Equatable {
    /// `nasm -f … -o OBJ SOURCE`.
    package var assemble: Command
    /// `ld …`, `ld.lld …` or `cc -no-pie …`.
    package var link: Command
    /// The object file nasm writes.
    package var objectPath: String
    /// The executable the linker writes.
    package var executablePath: String
    package var format: ObjectFormat
    /// The link mode after `auto` was decided.
    package var linkMode: LinkMode

    /// A plan from its parts (tests, and callers that compute commands themselves).
    init(
        assemble: Command, link: Command, objectPath: String, executablePath: String, format: ObjectFormat,
        linkMode: LinkMode
    ) {
        self.assemble = assemble
        self.link = link
        self.objectPath = objectPath
        self.executablePath = executablePath
        self.format = format
        self.linkMode = linkMode
    }

    /// Plans the build of `source` into `outputDirectory` (`NAME.o`, `NAME`).
    package init(source: SourceFile, toolchain: Toolchain, outputDirectory: String) throws {
        try self.init(
            source: source, toolchain: toolchain, objectPath: outputDirectory + "/" + source.stem + ".o",
            executablePath: outputDirectory + "/" + source.stem)
    }

    /// Plans the build of `source` with explicit output paths.
    package init(source: SourceFile, toolchain: Toolchain, objectPath: String, executablePath: String) throws {
        format = source.format
        linkMode = source.resolvedLink
        self.objectPath = objectPath
        self.executablePath = executablePath
        var nasmArguments = ["-f", format.rawValue]
        for directory in [source.directory] + source.settings.includeDirectories {
            nasmArguments += ["-I", directory.hasSuffix("/") ? directory : directory + "/"]
        }
        nasmArguments += source.settings.defines.map { "-D" + $0 }
        nasmArguments += ["-o", objectPath, source.path]
        assemble = Command(try toolchain.nasm(), nasmArguments)
        link = try Self.linkCommand(linkMode, format, toolchain, objectPath, executablePath)
    }

    private static func linkCommand(
        _ mode: LinkMode, _ format: ObjectFormat, _ toolchain: Toolchain, _ object: String,
        _ executable: String
    ) throws -> Command {
        if mode == .cc {
            let driver = try toolchain.compilerDriver(for: format)
            let bits = format == .elf32 && toolchain.host.runsX86_64 ? ["-m32"] : []
            return Command(driver, bits + ["-no-pie", "-Wl,-z,noexecstack", "-o", executable, object])
        }
        let linker = try toolchain.linker(for: format)
        let emulation = format == .elf64 ? "elf_x86_64" : "elf_i386"
        return Command(linker, ["-m", emulation, "-z", "noexecstack", "-o", executable, object])
    }

    /// The same plan writing to other paths (the commands are otherwise unchanged).
    package func relocated(objectPath newObject: String, executablePath newExecutable: String) -> BuildPlan {
        func move(_ command: Command) -> Command {
            var moved = command
            moved.arguments = command.arguments.map {
                $0 == objectPath ? newObject : $0 == executablePath ? newExecutable : $0
            }
            return moved
        }
        return BuildPlan(
            assemble: move(assemble), link: move(link), objectPath: newObject, executablePath: newExecutable,
            format: format, linkMode: linkMode)
    }
}
