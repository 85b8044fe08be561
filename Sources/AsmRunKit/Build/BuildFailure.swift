import Foundation

/// nasm or the linker rejected a program; carries the tool's own output and a hint.
public struct BuildFailure: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// Which step failed.
    public enum Stage: String, Sendable { case assemble = "assembly", link }

    /// The source file.
    public let source: String
    /// Which step failed.
    public let stage: Stage
    /// What the tool printed (nasm's `file:line: error:` lines, verbatim).
    public let output: String
    /// What to do about it, when asmrun recognises the error.
    public let hint: String?

    /// Creates a failure.
    public init(source: String, stage: Stage, output: String, hint: String?) {
        self.source = source
        self.stage = stage
        self.output = output
        self.hint = hint
    }

    /// The tool's lines, then `asmrun: FILE: link failed: HINT` when there is one.
    public var description: String {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if let hint { lines.append("asmrun: \(source): \(stage.rawValue) failed: \(hint)") }
        if lines.isEmpty { lines.append("asmrun: \(source): \(stage.rawValue) failed") }
        return lines.joined(separator: "\n")
    }

    /// Same as `description`.
    public var errorDescription: String? { description }

    /// The first `file:line` nasm named, for CI annotations.
    public var location: (file: String, line: Int)? {
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2)
            if parts.count == 3, let number = Int(parts[1]) { return (String(parts[0]), number) }
        }
        return nil
    }

    /// A fix for the errors people hit most, recognised in the tool's output.
    static func hint(for stage: Stage, output: String, plan: BuildPlan) -> String? {
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
            if plan.linkMode == .ld && output.contains("undefined reference to") {
                return
                    "a symbol is missing; if the program calls libc (printf, puts), define `main` instead of `_start` and link with `--link cc`"
            }
            if plan.linkMode == .cc && output.contains("undefined reference to `main'") {
                return "the C driver needs `main`; a program with `_start` links with `--link ld`"
            }
            if output.contains("skipping incompatible") || output.contains("cannot find -lgcc") {
                return "32-bit libc programs need the multilib packages: `apt-get install gcc-multilib`"
            }
        }
        return nil
    }
}
