import Source
import Support

/// nasm or the linker rejected a program; carries the tool's own output and a hint.
package struct BuildFailure: AsmRunError, Equatable {
    package enum Stage: String, Sendable { case assemble = "assembly", link }

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

    package var category: ErrorCategory { .build }
    package var location: FileLocation? { FileLocation(source) }
    package var problem: String { "\(stage.rawValue) failed" }
    package var fix: String? { hint }
    package var toolOutput: String { output }

    /// The first `file:line` of an error nasm named (warnings come before errors when both are
    /// printed), for CI annotations.
    package var errorLocation: FileLocation? {
        let lines = output.split(separator: "\n")
        let located = lines.compactMap { line -> (FileLocation, Bool)? in
            let parts = line.split(separator: ":", maxSplits: 3)
            guard parts.count >= 3, let number = Int(parts[1]) else { return nil }
            return (FileLocation(String(parts[0]), line: number), parts[2].contains("error"))
        }
        return (located.first { $0.1 } ?? located.first)?.0
    }

    /// A fix for the errors people hit most, recognised in the tool's output.
    static func hint(for stage: Stage, output: String, linkMode: LinkMode) -> String? {
        switch stage {
        case .assemble:
            if output.contains("not supported in 64-bit mode") {
                return "this looks like 32-bit code: add `bits 32` or `; asmrun: format elf32`, or pass `-f elf32`"
            }
            if output.contains("unable to open include file") {
                return "the include is looked up in the source's folder and the -I directories; add `-I DIR`"
            }
        case .link:
            if output.contains("can not be used when making a PIE object") || output.contains("recompile with -fPIE") {
                return
                    "absolute addresses cannot go into a PIE: write `default rel` and `call printf wrt ..plt`, or link with `--link cc` (which uses -no-pie)"
            }
            if linkMode == .ld && output.contains("undefined reference to") {
                return
                    "a symbol is missing; if the program calls libc (printf, puts), define `main` instead of `_start` and link with `--link cc`"
            }
            if linkMode == .cc && output.contains("undefined reference to `main'") {
                return "the C driver needs `main`; a program with `_start` links with `--link ld`"
            }
            if output.contains("cannot find crt1.o") {
                return "the C library's development files are missing: `apt-get install libc6-dev` (on ARM: libc6-dev-amd64-cross)"
            }
            if output.contains("skipping incompatible") || output.contains("cannot find -lgcc") {
                return "32-bit libc programs need the multilib packages: `apt-get install gcc-multilib`"
            }
        }
        return nil
    }
}
