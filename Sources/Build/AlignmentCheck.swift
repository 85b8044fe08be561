import Support

/// A legacy SSE instruction whose 16-byte memory operand is not 16-byte aligned raises a
/// general-protection fault on x86 hardware (SIGSEGV); qemu-user 7.2 checks the alignment of
/// only some of them (`movaps`, `addps`, `paddd`), and runs `xorps`, `andps`, `shufps`,
/// `cvtdq2ps`… as if it were `movups`. A sign mask in `.data` after a 4-byte value, read by
/// `xorps xmm0, [rel mask]`, passes under qemu and crashes on the x86 grader. Where the operand is
/// a fixed address (RIP-relative or absolute), the linked executable says whether it is aligned,
/// so asmrun says so at build time, naming the line, the instruction and the label.
///
/// The check reads the executable with objdump, and the debug build's line tables for the line
/// of a finding (`ArtifactStore.alignmentOutput`); its warnings are kept with the build's
/// (`EmulationWarning`). An operand a register addresses is not judged: its address is known
/// only when the program runs (the crash report's hint names it then).
enum AlignmentCheck {
    /// Part of the key of every cached executable, whose entry keeps these warnings.
    static let version = "alignment-check-1"

    /// Warnings shown at most per program.
    static let shownLimit = 20

    /// The warnings of `findings` (those with a line of the program's own), one line each as a
    /// build step prints them, in the order of their files and lines.
    static func buildOutput(_ findings: [AlignmentFindings.Finding], files: [String]) -> String {
        var seen: Set<String> = []
        var located: [(file: Int, line: Int, finding: AlignmentFindings.Finding)] = []
        for finding in findings {
            guard let location = finding.location, let line = location.line else { continue }
            guard seen.insert("\(location.path):\(line):\(finding.mnemonic):\(finding.target)").inserted else { continue }
            located.append((files.firstIndex(of: location.path) ?? files.count, line, finding))
        }
        located.sort { ($0.file, $0.line, $0.finding.address) < ($1.file, $1.line, $1.finding.address) }
        var text = ""
        for item in located.prefix(shownLimit) {
            text += EmulationWarning(path: item.finding.location!.path, line: item.line, message: message(item.finding)).rendered + "\n"
        }
        if located.count > shownLimit, let last = located.prefix(shownLimit).last {
            let rest =
                "and \(located.count - shownLimit) \(more), which x86 hardware faults on "
                + "and qemu-user may not, so they can pass under emulation and fail natively"
            text += EmulationWarning(path: last.finding.location!.path, line: last.line, message: rest).rendered + "\n"
        }
        return text
    }

    /// The lines of a build's output that are this check's warnings.
    static func own(in output: String) -> String {
        var text = ""
        for warning in EmulationWarning.all(in: output) where warning.message.contains(marker) || warning.message.contains(more) {
            text += warning.rendered + "\n"
        }
        return text
    }

    /// Words of every warning of this check (and of the line that counts the rest).
    private static let marker = "needs its memory operand aligned)"
    private static let more = "more SSE instructions whose operand is not aligned"

    /// What is wrong, what the hardware and qemu do, and the fix, in one line.
    static func message(_ finding: AlignmentFindings.Finding) -> String {
        let address = "0x" + String(finding.target, radix: 16)
        let named = finding.label.map { label in "`\(label.displayEscaped)`" + (finding.offset == 0 ? "" : " + \(finding.offset)") }
        let place = named.map { "\($0) (\(address))" } ?? address
        let mnemonic = finding.mnemonic
        let what =
            "`\(mnemonic)` \(finding.store ? "writes" : "reads") \(place), which is not \(finding.alignment)-byte aligned: "
            + "x86 hardware raises SIGSEGV here (`\(mnemonic)` \(marker)"
        let qemu =
            AlignedOperand.unfaultedByQemu.contains(Substring(mnemonic))
            ? " and qemu-user does not, so this passes under emulation and fails natively"
            : ", as qemu-user does, so this fails under emulation and natively"
        return what + qemu + ": " + fix(finding)
    }

    /// `align 16` before the label when that aligns the operand, else an unaligned move.
    private static func fix(_ finding: AlignmentFindings.Finding) -> String {
        let move = finding.mnemonic.hasPrefix("v") ? "vmovups" : "movups"
        let unaligned = finding.store ? "write it with `\(move)` instead" : "load it into a register with `\(move)` first"
        let alignment = UInt64(finding.alignment)
        guard let label = finding.label?.displayEscaped else { return "align the data to \(alignment) bytes, or \(unaligned)" }
        guard finding.offset % alignment == 0 else {
            return "\(unaligned) (at \(finding.offset) bytes past `\(label)`, it stays misaligned however `\(label)` is aligned)"
        }
        let directive = finding.section == ".bss" ? "alignb" : "align"
        return "put `\(directive) \(alignment)` before `\(label)`, or \(unaligned)"
    }
}
