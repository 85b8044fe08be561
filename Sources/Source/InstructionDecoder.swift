/// Turns one line's mnemonic and operands into an `Instruction`: which bytes of rcx and r11 it
/// reads and writes (explicit operands, memory addresses, and the implicit uses of `loop`,
/// `jrcxz`, `rep`, `cpuid`…), where control goes, and the constant it leaves in rax.
struct InstructionDecoder {
    let symbols: Symbols
    /// The instruction before this one in the code (for `mov eax, 7` / `cpuid`).
    let previous: Instruction?

    /// One operand: a register, a memory reference (whose address registers are read), or an
    /// expression (a lone word may be a label).
    struct Operand {
        var register: RegisterNames.Reference?
        /// Registers named inside `[…]`, or in an expression that is not a lone register.
        var inside: [RegisterNames.Reference] = []
        var isMemory = false
        /// The only word of an operand that is not a register or memory reference.
        var word: AsmLex.Bytes?
        var text: AsmLex.Bytes
    }

    /// Words that size or qualify an operand without naming anything.
    private static let qualifiers: Set<String> = [
        "byte", "word", "dword", "qword", "tword", "oword", "yword", "zword", "strict", "short", "near", "far", "abs", "rel", "wrt",
        "ptr", "to",
    ]

    func operand(_ text: AsmLex.Bytes) -> Operand {
        var operand = Operand(text: text)
        operand.isMemory = text.contains(AsmLex.openBracket)
        var words: [AsmLex.Bytes] = []
        for word in AsmLex.words(text) {
            let name = AsmLex.lower(word)
            if Self.qualifiers.contains(name) || name.hasPrefix("..") { continue }
            words.append(word)
            if let reference = RegisterNames.reference(AsmLex.lower(symbols.alias(word))) { operand.inside.append(reference) }
        }
        if !operand.isMemory && words.count == 1 {
            if let register = operand.inside.first {
                operand.register = register
                operand.inside = []
            } else {
                operand.word = words[0]
            }
        }
        return operand
    }

    /// The instruction `mnemonic` (lower case, of `kind`) with `operands` is; `target`: the label
    /// it jumps to or calls, as written.
    func decode(_ kind: InstructionTable.Kind, _ mnemonic: String, _ texts: [AsmLex.Bytes], repeated: Bool) -> (
        Instruction, target: AsmLex.Bytes?
    ) {
        var instruction = Instruction()
        let operands = texts.map(operand)
        var target: AsmLex.Bytes?
        let kind = kind == .string && !operands.isEmpty ? .write : kind
        switch kind {
        case .write, .modify, .exchange, .read, .pop, .imul:
            access(kind, mnemonic, operands, into: &instruction)
        case .none, .halt, .ret:
            instruction.flow = kind == .ret ? .ret : kind == .halt ? .stop : .next
        case .jump, .branch, .call:
            target = operands.first?.word
            instruction.flow = kind == .jump ? .jump : kind == .branch ? .branch : .call
            if target == nil {
                for operand in operands { read(operand, into: &instruction) }
                if kind != .call { instruction.flow = .stop }
            }
        case .loop, .branchOnCount:
            let second = operands.dropFirst().first?.register
            var bytes = second.flatMap { $0.family == .rcx ? $0.covers : nil } ?? 0xff
            if case .branchOnCount(let mask) = kind { bytes = mask }
            instruction.rcx = RegisterUse(read: bytes, written: kind == .loop ? 0xff : 0)
            (instruction.flow, target) = (.branch, operands.first?.word)
        default:
            implicit(kind, operands, repeated: repeated, into: &instruction)
        }
        if InstructionTable.writesRAXImplicitly.contains(mnemonic) { instruction.rax = Instruction.unknown }
        instruction.stack = Self.stackUse(mnemonic, operands, instruction.stack)
        return (instruction, target)
    }

    /// The kinds whose operands say it all.
    private func access(
        _ kind: InstructionTable.Kind, _ mnemonic: String, _ operands: [Operand], into instruction: inout Instruction
    ) {
        var kind = kind
        if kind == .imul { kind = operands.count == 1 ? .read : operands.count == 2 ? .modify : .write }
        if Self.resultIgnoresDestination(mnemonic, operands), let destination = operands.first?.register {
            write(destination, into: &instruction)
            if destination.family == .rax { instruction.rax = 0 }
            return
        }
        for (position, operand) in operands.enumerated() {
            let destination = position == 0 || kind == .exchange
            let reads = kind == .read || kind == .modify || kind == .exchange || !destination
            if reads || operand.register == nil { read(operand, into: &instruction) }
            if destination && kind != .read, let register = operand.register { write(register, into: &instruction) }
        }
        guard let destination = operands.first?.register, destination.family == .rax, kind != .read else { return }
        let value = kind == .write && mnemonic == "mov" && operands.count == 2 ? symbols.value(operands[1].text) : nil
        instruction.rax = value ?? Instruction.unknown
    }

    /// What `mnemonic` does to the stack (`written`: rsp was written as an operand).
    private static func stackUse(_ mnemonic: String, _ operands: [Operand], _ written: StackUse) -> StackUse {
        switch mnemonic {
        case "push": operands.first?.register != nil ? .pushRegister : .push
        case "pushf", "pushfq": .push
        case "pop", "popf", "popfq": .pop
        case "leave", "enter": .other
        default: written
        }
    }

    /// `xor ecx, ecx`, `sub ecx, ecx`, `and ecx, 0`: the result does not depend on the old value.
    private static func resultIgnoresDestination(_ mnemonic: String, _ operands: [Operand]) -> Bool {
        guard operands.count == 2, let first = operands[0].register else { return false }
        if mnemonic == "xor" || mnemonic == "sub" || mnemonic == "sbb" { return operands[1].register == first }
        return mnemonic == "and" && AsmLex.integer(operands[1].text) == 0
    }

    private func implicit(_ kind: InstructionTable.Kind, _ operands: [Operand], repeated: Bool, into instruction: inout Instruction) {
        for operand in operands { read(operand, into: &instruction) }
        switch kind {
        case .syscall:
            instruction.flow = .syscall
            instruction.rcx.written = 0xff
            instruction.r11.written = 0xff
            instruction.rax = Instruction.unknown
        case .cpuid:
            let leaf = previous?.rax ?? Instruction.untouched
            let ignores = leaf != Instruction.untouched && leaf != Instruction.unknown && InstructionTable.leafIgnoresECX(leaf)
            instruction.rcx = RegisterUse(read: ignores ? 0 : 0x0f, written: 0xff)
        case .writesRCX: instruction.rcx.written = 0xff
        case .readsRCX(let bytes): instruction.rcx.read |= bytes
        case .string where repeated: instruction.rcx = RegisterUse(read: 0xff, written: 0xff)
        case .interrupt:
            if let number = operands.first.flatMap({ symbols.value($0.text) }), number == 3 || number == 1 { instruction.flow = .stop }
        default: break
        }
    }

    private func read(_ operand: Operand, into instruction: inout Instruction) {
        for register in operand.register.map({ [$0] }) ?? operand.inside {
            switch register.family {
            case .rcx: Self.note(register, in: &instruction.rcx)
            case .r11: Self.note(register, in: &instruction.r11)
            default: break
            }
        }
    }

    private static func note(_ register: RegisterNames.Reference, in use: inout RegisterUse) {
        if use.read == 0 { use.spelling = register.spelling }
        use.read |= register.covers
    }

    private func write(_ register: RegisterNames.Reference, into instruction: inout Instruction) {
        switch register.family {
        case .rcx: instruction.rcx.written |= register.writes
        case .r11: instruction.r11.written |= register.writes
        case .rax: instruction.rax = Instruction.unknown
        case .rsp: instruction.stack = .other
        case .other: break
        }
    }
}
