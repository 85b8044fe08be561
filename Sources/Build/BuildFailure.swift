import Glibc
import Processes
import Source
import Support

/// nasm or the linker rejected a program; carries the tool's own output and a hint.
package struct BuildFailure: AsmRunError, Equatable {
    package enum Stage: String, Sendable { case assemble = "assembly", compile = "compilation", link }

    package let source: String
    package let stage: Stage
    /// What the tool printed (nasm's `file:line: error:` lines, verbatim).
    package let output: String
    /// What to do about it, when asmrun recognises the error.
    package let hint: String?

    package init(source: String, stage: Stage, output: String, hint: String?) {
        self.source = source
        self.stage = stage
        self.output = output
        self.hint = hint
    }

    package var location: FileLocation? { FileLocation(source) }
    package var problem: String { "\(stage.rawValue) failed" }
    package var fix: String? { hint }
    package var toolOutput: String { output }

    /// The first `file:line` of an error the tool named (nasm's `file:line: error:`, the C
    /// compiler's `file:line:column: error:`; warnings come before errors when both are
    /// printed, and a line that only mentions "error" in its text is no error), for CI
    /// annotations; the first located line when no error is.
    package var errorLocation: FileLocation? {
        var first: FileLocation?
        for line in output.split(separator: "\n") {
            var parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
            guard parts.count >= 3, let number = Int(parts[1]), number > 0 else { continue }
            let location = FileLocation(String(parts[0]), line: number)
            if parts.count >= 4, Int(parts[2]) != nil { parts.remove(at: 2) }
            let severity = parts[2]
            if severity == "error" || severity == "fatal error" || severity == "fatal" { return location }
            first = first ?? location
        }
        return first
    }

    /// nasm rejected the code as 64-bit: the one failure asmrun retries, as 32-bit code.
    var rejects64BitCode: Bool { stage == .assemble && output.contains("not supported in 64-bit mode") }

    /// What to do when a tool ran into one of the build's limits (`Builder.limits`). The CPU
    /// limit's soft and hard values are one, so the kernel ends the tool with SIGKILL, not
    /// SIGXCPU: a SIGKILL after at least that many seconds (`duration`, wall time, which a
    /// single-threaded tool's CPU time does not exceed) is that limit.
    static func limitHint(_ termination: Termination, output: String, duration: Double = 0) -> String? {
        let size = "\(Builder.limits.fileSize! >> 20) MiB"
        if termination == .signaled(SIGXFSZ) || output.contains("File too large") {
            return "the build wrote more than the \(size) a build may write; a `times` or `incbin` that large is almost always a mistake"
        }
        let cpu = Builder.limits.cpuSeconds!
        let cpuLimit = termination == .signaled(SIGKILL) && duration >= Double(cpu) - 0.5
        if termination == .timedOut || termination == .signaled(SIGXCPU) || cpuLimit {
            return
                "the tool ran past the build's limit (\(Int(Builder.timeout)) s, \(cpu) s of CPU); look for a `%rep` or macro that never ends"
        }
        if output.contains("out of memory") || output.contains("memory exhausted") || output.contains("Cannot allocate memory") {
            return
                "the tool ran out of the \(Builder.limits.addressSpace! >> 30) GiB of memory a build may use; look for a `times` or `%rep` that large"
        }
        return nil
    }

    /// What a source nasm rejected is when it is not NASM at all (GNU as, MASM, DOS), read from
    /// its first 256 KiB.
    /// A UTF-8 byte order mark, which nasm reads as text (the classic build fails alike), comes
    /// first.
    static func foreignHint(_ source: String) -> String? {
        guard let bytes = try? Files.read(source) else { return nil }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return "the file starts with a UTF-8 byte order mark, which nasm reads as text on line 1: save it as UTF-8"
                + " without one (VS Code: the status bar's `UTF-8 with BOM`, then Save with Encoding, UTF-8)"
        }
        return ForeignDialect(Substring(decoding: bytes.prefix(256 << 10), as: UTF8.self))?.hint
    }

    /// A fix for the assembly errors people hit most, recognised in nasm's output.
    static func assemblyHint(_ output: String) -> String? {
        if output.contains("not supported in 64-bit mode") {
            return "this looks like 32-bit code: add `bits 32` or `; asmrun: format elf32`, or pass `-f elf32`"
        }
        if output.contains("unable to open include file") {
            return "the include is looked up in the source's folder and the -I directories; add `-I DIR`"
        }
        return nil
    }

    /// A fix for the C compiler's errors asmrun can explain.
    static func compileHint(_ output: String) -> String? {
        if output.contains("bits/libc-header-start.h") || output.contains("gnu/stubs-32.h") {
            return "32-bit C needs the multilib packages: `apt-get install gcc-multilib`"
        }
        return nil
    }

    /// A fix for the link errors people hit most: `objects` are the program's sources with the
    /// symbols their objects define and need, so a missing symbol names who needs it.
    static func linkHint(_ output: String, driver: LinkDriver, objects: [(source: String, symbols: ElfSymbols)]) -> String? {
        if output.contains("can not be used when making a PIE object") || output.contains("recompile with -fPIE") {
            return
                "absolute addresses cannot go into a PIE: write `default rel` and `call printf wrt ..plt`, or leave out `-pie` (asmrun links with -no-pie)"
        }
        if output.contains("skipping incompatible") || output.contains("cannot find -lgcc") {
            return "32-bit libc programs need the multilib packages: `apt-get install gcc-multilib`"
        }
        if output.contains("cannot find crt1.o") {
            return
                "the C library's development files are missing: `apt-get install libc6-dev` (on ARM: libc6-dev-amd64-cross; 32-bit: gcc-multilib)"
        }
        if driver == .cDriver && output.contains("undefined reference to `main'") {
            return "the C driver needs `main`; a program with `_start` links with `--link ld`"
        }
        guard let name = firstUndefined(output) else { return nil }
        let users = objects.filter { $0.symbols.undefined.contains(name) }.map(\.source)
        let who = users.isEmpty ? "" : " is used by \(users.joined(separator: ", ")) but"
        let sources = objects.map(\.source).joined(separator: " ")
        return "`\(name)`\(who) no source defines it and no library linked provides it: add the file that defines it "
            + "(asmrun \(sources) FILE, or `; asmrun: with FILE`), or the library (`; asmrun: link-flags -lNAME`)"
    }

    /// The first name in `undefined reference to `NAME'`.
    private static func firstUndefined(_ output: String) -> String? {
        guard let start = output.firstRange(of: "undefined reference to `")?.upperBound,
            let end = output[start...].firstIndex(of: "'")
        else { return nil }
        return String(output[start..<end])
    }
}
