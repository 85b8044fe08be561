import Support

/// Assembly that is not NASM's: a GNU as source (AT&T syntax, or `.intel_syntax`), a MASM or TASM
/// source, or a 16-bit DOS program. Recognised only once nasm has rejected a file, to say in one
/// line what it is instead of nasm's dozens of "instruction expected".
package enum ForeignDialect: Equatable, Sendable {
    /// GNU as: `.globl`, `.section`, `%eax`, `$60`.
    case gnuAs
    /// MASM or TASM: `.model`, `.code`, `PROC`/`ENDP`, `END main`.
    case masm
    /// A DOS program in NASM syntax: `int 21h` and `org 100h`.
    case dos

    /// The dialect of `text` when enough of its lines say so (two, so that one odd line in a
    /// NASM source is never enough).
    package init?(_ text: Substring) {
        var gas = 0
        var masm = 0
        var dos = 0
        for rawLine in text.split(separator: "\n").prefix(2000) {
            let line = Self.code(rawLine)
            guard !line.isEmpty else { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map { $0.lowercased() }
            guard let first = words.first else { continue }
            if Self.gasDirectives.contains(first) || Self.hasAttRegister(line) { gas += 1 }
            if Self.masmDirectives.contains(first) || words.dropFirst().first.map({ $0 == "proc" || $0 == "endp" }) == true
                || first == "assume" || first == "end" && words.count == 2
            {
                masm += 1
            }
            if first == "int", words.count == 2, words[1] == "21h" || words[1] == "0x21" || words[1] == "33" { dos += 2 }
            if first == "org", words.count == 2, words[1] == "100h" || words[1] == "0x100" { dos += 1 }
        }
        if masm >= 2 {
            self = .masm
        } else if gas >= 2 {
            self = .gnuAs
        } else if dos >= 2 {
            self = .dos
        } else {
            return nil
        }
    }

    /// One sentence: what the file is and what to do.
    package var hint: String {
        switch self {
        case .gnuAs:
            "this is GNU as (AT&T syntax: `movl $60, %eax`, `.globl`), not NASM, which asmrun builds: assemble it with `gcc -nostdlib` (or as and ld), or rewrite it in NASM's Intel syntax"
        case .masm:
            "this is MASM/TASM syntax (`.model`, `PROC`, `END`) for DOS or Windows, not NASM: Linux cannot run it; rewrite it for NASM and Linux system calls"
        case .dos:
            "this is a 16-bit DOS program (`int 21h`): Linux cannot run it (DOSBox can); asmrun runs 32- and 64-bit Linux programs"
        }
    }

    private static let gasDirectives: Set<String> = [
        ".globl", ".global", ".section", ".text", ".data", ".bss", ".type", ".size", ".string", ".asciz", ".ascii", ".long",
        ".quad", ".byte", ".intel_syntax", ".att_syntax", ".file", ".p2align", ".rodata",
    ]
    private static let masmDirectives: Set<String> = [
        ".model", ".code", ".stack", ".386", ".486", ".586", ".686", ".startup", ".exit", "includelib", "option",
    ]

    /// `%eax`, `%rsp`, `%r12`: a register as AT&T writes it.
    private static func hasAttRegister(_ line: String) -> Bool {
        var rest = Substring(line)
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            let name = rest.prefix { $0.isLetter || $0.isNumber }.lowercased()
            if attRegisters.contains(name) { return true }
        }
        return false
    }

    private static let attRegisters: Set<String> = {
        var names: Set<String> = ["rip", "eip"]
        for base in ["ax", "bx", "cx", "dx", "si", "di", "sp", "bp"] { names.formUnion(["r" + base, "e" + base, base]) }
        for number in 8...15 { names.formUnion(["r\(number)", "r\(number)d"]) }
        return names
    }()

    /// The line without its comment (`;`, `#`, `//`) and surrounding blanks. A `%` at the start
    /// is NASM's preprocessor and never AT&T.
    private static func code(_ line: Substring) -> String {
        var text = line
        for marker in [";", "#", "//"] {
            if let range = text.firstRange(of: marker) { text = text[..<range.lowerBound] }
        }
        let trimmed = text.trimmingBlanks()
        return trimmed.hasPrefix("%") ? "" : trimmed
    }
}
