import Processes
import Source
import Support

/// How the objects become an executable.
enum LinkDriver: String, Sendable, Equatable {
    /// `ld` (or `ld.lld`): no libc; the program starts at its own `_start`.
    case linker
    /// The C compiler driver: libc is initialised and calls `main`.
    case cDriver
    /// The C compiler driver with `-nostartfiles`: the program's own `_start`, with libc (or C
    /// files) linked in.
    case cDriverOwnStart
}

/// The link step, decided after compiling from what the objects define and need.
enum LinkDecision {
    /// `_start` defined → the linker, or the C driver without start files when the program
    /// needs libc, C files or libraries; `main` defined → the C driver; neither → an error.
    static func decide(
        _ plan: BuildPlan, objects: [(path: String, symbols: ElfSymbols)], program: Program
    ) throws -> LinkDriver {
        let defined = objects.reduce(into: Set<String>()) { $0.formUnion($1.symbols.defined) }
        for entry in ["_start", "main"] {
            let definers = objects.filter { $0.symbols.defined.contains(entry) && !$0.symbols.weak.contains(entry) }.map(\.path)
            if definers.count > 1 { throw EntryPointTwice(program: program, entry: entry, sources: definers) }
        }
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
        throw EntryPointMissing(
            program: program, labels: objects.reduce(into: Set<String>()) { $0.formUnion($1.symbols.local) }, defined: defined)
    }

    /// Functions that write through stdio's buffer.
    static let bufferedOutput = ["printf", "puts", "putchar", "fputs", "fprintf", "fwrite", "putc", "fputc", "vprintf"]

    /// A program with its own `_start` that prints through stdio but calls neither `exit` nor
    /// `fflush` ends with the exit system call, and stdio's buffer goes with it whenever stdout
    /// is a pipe or a file (a test, `> out.txt`): one warning that names the fix.
    static func lostStdioWarning(_ program: Program, objects: [ElfSymbols]) -> String? {
        let needed = objects.reduce(into: Set<String>()) { $0.formUnion($1.undefined) }
        guard let printer = bufferedOutput.first(where: needed.contains), !needed.contains("exit"), !needed.contains("fflush") else {
            return nil
        }
        return "asmrun: \(program.path.displayEscaped): warning: it calls \(printer) from `_start` and never exit or fflush: "
            + "the exit system call drops what stdio still holds, all of it when stdout is not a terminal (a pipe, a file, a test); "
            + "end with `call exit` (edi = status), or `xor edi, edi` and `call fflush` before the system call"
    }

    /// Whether the program's stack is to be executable, as GNU ld decides it: the link flags'
    /// last `-z execstack` or `-z noexecstack` (ld's last word wins), else whether an object's
    /// `.note.GNU-stack` asks for one. An object without the note (nasm writes none) does not
    /// ask: that is asmrun's `-z noexecstack`, which keeps the C driver's "missing
    /// .note.GNU-stack section implies executable stack" warning off the user's stderr.
    static func executableStack(notes: [StackNote], linkFlags: [String]) -> Bool {
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
    static func command(
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
