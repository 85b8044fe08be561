/// Turns one line's mnemonic and operands into an `Instruction`: which bytes of rcx and r11 it
/// reads and writes (explicit operands, memory addresses, and the implicit uses of `loop`,
/// `jrcxz`, `rep`, `cpuid`…), where control goes, what it does to the stack, and the constant it
/// leaves in rax.
struct InstructionDecoder {
    let symbols: Symbols
    /// The instruction before this one in the code (for `mov eax, 7` / `cpuid`).
    let previous: Instruction?

    /// One operand: a register, a memory reference (whose address registers are read), or an
    /// expression (a lone word may be a label).
    struct Operand {
        var register: RegisterNames.Reference?
        /// What naming rcx and r11 inside `[…]` (or in an expression) reads.
        var inside = (rcx: RegisterUse(), r11: RegisterUse())
        /// The only word of an operand that is not a register or memory reference.
        var word: AsmLex.Bytes?
        var text: AsmLex.Bytes
    }

    /// Words that size or qualify an operand without naming anything.
    private static let qualifiers: WordTable<Bool> = {
        var table = WordTable<Bool>(capacity: 20)
        for key in WordKey.keys("byte word dword qword tword oword yword zword strict short near far abs rel wrt ptr to") {
            table[key] = true
        }
        return table
    }()

    /// Reads an operand word by word, in place.
    func operand(_ text: AsmLex.Bytes) -> Operand {
        var operand = Operand(text: text)
        let memory = text.contains(AsmLex.openBracket)
        var words = 0
        var only: RegisterNames.Reference?
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == AsmLex.doubleQuote || byte == AsmLex.singleQuote || byte == AsmLex.backquote || byte == AsmLex.openBrace {
                let close = byte == AsmLex.openBrace ? AsmLex.closeBrace : byte
                index = (text[(index + 1)...].firstIndex(of: close) ?? text.endIndex - 1) + 1
                continue
            }
            guard AsmLex.isWordByte(byte) else {
                index += 1
                continue
            }
            let start = index
            while index < text.endIndex && AsmLex.isWordByte(text[index]) { index += 1 }
            let word = text[start..<index]
            if word.count <= 6, let key = WordKey(word), Self.qualifiers[key] == true { continue }
            if word.starts(with: [AsmLex.dot, AsmLex.dot]) { continue }
            words += 1
            operand.word = word
            guard let register = symbols.alias(word).map(RegisterNames.reference) ?? RegisterNames.reference(word) else { continue }
            only = register
            switch register.family {
            case .rcx: Self.note(register, in: &operand.inside.rcx)
            case .r11: Self.note(register, in: &operand.inside.r11)
            default: break
            }
        }
        if memory || words != 1 { operand.word = nil }
        if !memory && words == 1, let only {
            operand.register = only
            (operand.inside, operand.word) = ((RegisterUse(), RegisterUse()), nil)
        }
        return operand
    }

    /// The instruction a line of `kind` with `traits` and `operands` is; `target`: the label it
    /// jumps to or calls, as written.
    func decode(_ kind: InstructionTable.Kind, _ traits: InstructionTable.Traits, _ texts: [AsmLex.Bytes], repeated: Bool) -> (
        Instruction, target: AsmLex.Bytes?
    ) {
        var instruction = Instruction()
        let operands = texts.map(operand)
        var target: AsmLex.Bytes?
        let kind = kind == .string && !operands.isEmpty ? .write : kind
        switch kind {
        case .write, .modify, .exchange, .read, .pop, .imul:
            access(kind, traits, operands, into: &instruction)
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
        if traits.contains(.writesRAX) { instruction.rax = Instruction.unknown }
        if traits.contains(.pushes) { instruction.stack = operands.first?.register != nil ? .pushRegister : .push }
        if traits.contains(.pops) { instruction.stack = .pop }
        if traits.contains(.movesStack) { instruction.stack = .other }
        return (instruction, target)
    }

    /// The kinds whose operands say it all.
    private func access(
        _ kind: InstructionTable.Kind, _ traits: InstructionTable.Traits, _ operands: [Operand], into instruction: inout Instruction
    ) {
        var kind = kind
        if kind == .imul { kind = operands.count == 1 ? .read : operands.count == 2 ? .modify : .write }
        if let destination = operands.first?.register, Self.ignoresOldValue(traits, operands) {
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
        let value = traits.contains(.move) && operands.count == 2 ? symbols.value(operands[1].text) : nil
        instruction.rax = value ?? Instruction.unknown
    }

    /// `xor ecx, ecx`, `sub ecx, ecx`, `and ecx, 0`: the result does not depend on the old value.
    private static func ignoresOldValue(_ traits: InstructionTable.Traits, _ operands: [Operand]) -> Bool {
        guard operands.count == 2, let first = operands[0].register else { return false }
        if traits.contains(.zeroesItself) { return operands[1].register == first }
        return traits.contains(.zeroesWithZero) && AsmLex.integer(operands[1].text) == 0
    }

    private func implicit(_ kind: InstructionTable.Kind, _ operands: [Operand], repeated: Bool, into instruction: inout Instruction) {
        for operand in operands { read(operand, into: &instruction) }
        switch kind {
        case .syscall:
            instruction.flow = .syscall
            instruction.rcx.written = 0xff
            instruction.r11.written = 0xff
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
        if let register = operand.register {
            switch register.family {
            case .rcx: Self.note(register, in: &instruction.rcx)
            case .r11: Self.note(register, in: &instruction.r11)
            default: break
            }
            return
        }
        Self.merge(operand.inside.rcx, into: &instruction.rcx)
        Self.merge(operand.inside.r11, into: &instruction.r11)
    }

    private static func note(_ register: RegisterNames.Reference, in use: inout RegisterUse) {
        merge(RegisterUse(read: register.covers, written: 0, spelling: register.spelling), into: &use)
    }

    private static func merge(_ other: RegisterUse, into use: inout RegisterUse) {
        guard other.read != 0 else { return }
        if use.read == 0 { use.spelling = other.spelling }
        use.read |= other.read
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
