import Support

/// The instructions of a linked executable that need an aligned memory operand
/// (`AlignedOperand`) and address one at a fixed place that is not: read from
/// `objdump -w -t -d [-l] -M intel --no-show-raw-insn`. A fixed place is what the hardware will
/// see whatever the registers hold: RIP-relative (`[rip+0xff5]  # 402004 <mask>`) or absolute
/// (`ds:0x804a004`); the load address of a non-PIE executable is the link's, and a PIE's moves by
/// whole pages, so the address's remainder is the hardware's either way.
struct AlignmentFindings {
    struct Finding: Equatable {
        /// The instruction's address.
        var address: UInt64
        var mnemonic: String
        /// The operand's address and the alignment it lacks.
        var target: UInt64
        var alignment: Int
        /// The label at or below the operand (`mask`), how far past it, and its section.
        var label: String?
        var offset: UInt64 = 0
        var section: String?
        /// The operand is the destination (`movaps [rel x], xmm0`).
        var store = false
        /// The source line (with `-l` of a debug build), as the program names the file.
        var location: FileLocation?
    }

    private(set) var findings: [Finding] = []

    /// Symbols ld defines at the ends of sections, never a name the program gave its data.
    private static let linkerSymbols: Set<Substring> = [
        "__bss_start", "_edata", "_end", "__data_start", "data_start", "__dso_handle", "_IO_stdin_used", "__TMC_END__",
        "_GLOBAL_OFFSET_TABLE_", "_DYNAMIC", "__GNU_EH_FRAME_HDR", "__FRAME_END__",
    ]

    /// Reads objdump's output; `sources` are the program's paths (its sources and what they
    /// include) that `-l` lines are matched to by their last component.
    init(objdump text: String, sources: [String]) {
        let names = sources.map { PathName.lastComponent(of: $0) }
        var symbols: [(address: UInt64, name: Substring, section: Substring)] = []
        var location: FileLocation?
        for line in text.split(separator: "\n") {
            if line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":"), let address = UInt64(line[..<colon].trimmingBlanks(), radix: 16) else {
                    continue
                }
                let instruction = line[line.index(after: colon)...].drop { $0 == "\t" || $0 == " " }
                if var finding = Self.finding(instruction, at: address) {
                    finding.location = location
                    findings.append(finding)
                }
            } else if let symbol = Self.symbol(line) {
                symbols.append(symbol)
            } else if line.hasSuffix(":") {
                location = line.hasSuffix(">:") ? nil : location
            } else {
                location = ObjdumpLine.place(line, names: names, sources: sources)
            }
        }
        symbols.sort { $0.address < $1.address }
        for index in findings.indices {
            let target = findings[index].target
            let below = symbols.last { $0.address <= target && !Self.linkerSymbols.contains($0.name) }
            guard let below else { continue }
            findings[index].label = String(below.name)
            findings[index].offset = target - below.address
            findings[index].section = String(below.section)
        }
    }

    /// The finding of one instruction, when it needs an alignment its fixed operand lacks.
    static func finding(_ instruction: Substring, at address: UInt64) -> Finding? {
        guard let alignment = AlignedOperand.alignment(of: instruction), let target = fixedAddress(instruction),
            target % UInt64(alignment) != 0
        else { return nil }
        let mnemonic = AlignedOperand.mnemonic(of: instruction)
        let operands = instruction.dropFirst(mnemonic.count).drop { $0 == " " }
        return Finding(
            address: address, mnemonic: String(mnemonic), target: target, alignment: alignment,
            store: operands.hasPrefix("XMMWORD") || operands.hasPrefix("YMMWORD") || operands.hasPrefix("ZMMWORD"))
    }

    /// The address of a RIP-relative operand (objdump's comment says it) or an absolute one
    /// (`ds:0x804a004`); `nil` for an operand a register addresses.
    static func fixedAddress(_ instruction: Substring) -> UInt64? {
        let code = instruction.prefix { $0 != "#" }
        if code.contains("[rip+") || code.contains("[rip-") || code.contains("[rip]") {
            guard let hash = instruction.firstIndex(of: "#") else { return nil }
            // objdump writes `# 402004 <mask>`, gdb `# 0x402004 <mask>`.
            var comment = instruction[instruction.index(after: hash)...].drop { $0 == " " }
            if comment.hasPrefix("0x") { comment = comment.dropFirst(2) }
            return UInt64(comment.prefix { $0.isHexDigit }, radix: 16)
        }
        guard let range = code.firstRange(of: "PTR ds:0x") else { return nil }
        return UInt64(code[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
    }

    /// `0000000000402004 l       .data\t0000000000000000 mask`: a symbol the program or the
    /// linker named (not a section's, a file's or a debugging symbol).
    private static func symbol(_ line: Substring) -> (address: UInt64, name: Substring, section: Substring)? {
        guard let tab = line.firstIndex(of: "\t") else { return nil }
        let head = line[..<tab].split(separator: " ")
        guard head.count >= 3, let address = UInt64(head[0], radix: 16), let section = head.last,
            !section.hasPrefix("*"), !head.dropFirst().dropLast().contains(where: { $0.contains("d") || $0.contains("f") })
        else { return nil }
        guard let name = line[line.index(after: tab)...].split(separator: " ").last else { return nil }
        return (address, name, section)
    }

}
