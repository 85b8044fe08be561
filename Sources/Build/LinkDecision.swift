import Sandbox
import Source
import Support

/// How the objects become an executable.
package enum LinkDriver: String, Sendable, Equatable {
    /// `ld` (or `ld.lld`): no libc; the program starts at its own `_start`.
    case linker
    /// The C compiler driver: libc is initialised and calls `main`.
    case cDriver
    /// The C compiler driver with `-nostartfiles`: the program's own `_start`, with libc (or C
    /// files) linked in.
    case cDriverOwnStart
}

/// The link step, decided after compiling from what the objects define and need.
package enum LinkDecision {
    /// `_start` defined → the linker, or the C driver without start files when the program
    /// needs libc, C files or libraries; `main` defined → the C driver; neither → an error.
    package static func decide(
        _ plan: BuildPlan, objects: [(path: String, symbols: ElfSymbols)], program: Program
    ) throws -> LinkDriver {
        let defined = objects.reduce(into: Set<String>()) { $0.formUnion($1.symbols.defined) }
        switch plan.linkMode {
        case .ld: return .linker
        case .cc: return defined.contains("_start") && !defined.contains("main") ? .cDriverOwnStart : .cDriver
        case .auto: break
        }
        if defined.contains("_start") {
            let needed = objects.reduce(into: Set<String>()) { $0.formUnion($1.symbols.undefined) }.subtracting(defined)
            let wantsLibraries = plan.linkFlags.contains { $0.hasPrefix("-l") || $0.hasSuffix(".a") || $0.hasSuffix(".so") }
            let hasC = plan.compiles.contains { $0.language == .c }
            return needed.isEmpty && !wantsLibraries && !hasC ? .linker : .cDriverOwnStart
        }
        if defined.contains("main") { return .cDriver }
        throw EntryPointMissing(program: program)
    }

    /// Whether the program's stack is to be executable, as GNU ld decides it: the link flags'
    /// last `-z execstack` or `-z noexecstack` (ld's last word wins), else whether an object's
    /// `.note.GNU-stack` asks for one. An object without the note (nasm writes none) does not
    /// ask: that is asmrun's `-z noexecstack`, which keeps the C driver's "missing
    /// .note.GNU-stack section implies executable stack" warning off the user's stderr.
    package static func executableStack(notes: [StackNote], linkFlags: [String]) -> Bool {
        var words: [String] = []
        var flags = linkFlags.makeIterator()
        while let flag = flags.next() {
            if flag.hasPrefix("-Wl,") {
                words += flag.split(separator: ",").dropFirst().map(String.init)
            } else if flag == "-Xlinker" {
                words += flags.next().map { [$0] } ?? []
            } else {
                words.append(flag)
            }
        }
        var said: Bool?
        for (index, word) in words.enumerated() {
            let keyword = word == "-z" ? words.dropFirst(index + 1).first : word.hasPrefix("-z") ? String(word.dropFirst(2)) : nil
            if keyword == "execstack" { said = true }
            if keyword == "noexecstack" { said = false }
        }
        return said ?? notes.contains(.executable)
    }

    /// The link command for `driver`; `executableStack` from `executableStack(notes:linkFlags:)`
    /// (`ld.lld` refuses an object whose note asks for one unless told `-z execstack`).
    package static func command(
        _ driver: LinkDriver, _ plan: BuildPlan, objects: [String], toolchain: Toolchain, executableStack: Bool = false
    ) throws -> Command {
        let inputs = objects + plan.prebuilt.map(BuildPlan.operand)
        let stack = executableStack ? "execstack" : "noexecstack"
        if driver == .linker {
            // The classic `ld x.o`, flag for flag: its program headers (no PT_GNU_STACK without a
            // note asking for one) are in the program's first page, and a 32-bit program without
            // one may execute its data natively (the kernel's READ_IMPLIES_EXEC), as it does there.
            // `-z execstack` only where a note asks for it, which GNU ld honours by itself and
            // ld.lld refuses without the flag.
            let emulation = plan.format == .elf64 ? "elf_x86_64" : "elf_i386"
            return Command(
                try toolchain.linker(for: plan.format),
                ["-m", emulation] + (executableStack ? ["-z", "execstack"] : []) + ["--dependency-file=" + plan.linkDependencies]
                    + ["-o", plan.executable] + inputs + plan.linkFlags)
        }
        let bits = plan.format == .elf32 && toolchain.host.runsX86_64 ? ["-m32"] : []
        let pie = plan.linkFlags.contains("-pie") ? [] : ["-no-pie"]
        let start = driver == .cDriverOwnStart ? ["-nostartfiles"] : []
        // The linker's `-Bstatic` and its kin, which the driver would take for `-B PREFIX`: the
        // folder it runs its assembler and linker from.
        let flags = plan.linkFlags.map { DirectiveFlags.linkerKeywords.contains($0) ? "-Wl," + $0 : $0 }
        return Command(
            try toolchain.compilerDriver(for: plan.format),
            bits + pie + start + ["-Wl,-z," + stack, "-Wl,--dependency-file=" + plan.linkDependencies, "-o", plan.executable] + inputs
                + flags)
    }
}

/// No object defines an entry point: a file of functions without its driver.
package struct EntryPointMissing: AsmRunError, Equatable {
    package let program: String
    package let sources: [String]

    init(program: Program) {
        self.program = program.path
        sources = program.files
    }

    package var location: FileLocation? { FileLocation(program) }

    package var problem: String {
        let which = sources.count == 1 ? "it defines" : "none of \(sources.joined(separator: ", ")) defines"
        return "no entry point: \(which) `_start` or `main`"
    }

    package var fix: String? {
        "a file of functions needs a C driver: add a C file with `main` (asmrun \(program) driver.c, or `; asmrun: with driver.c`), or define `_start`"
    }
}
