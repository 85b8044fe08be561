import Processes

/// The address a faulting instruction accessed, worked out from its operand and the registers:
/// what the report shows when the signal came without one (qemu's gdbstub has no `$_siginfo`),
/// and whether it read or wrote there. The instruction is gdb's Intel syntax, which writes every
/// memory operand nasm emits one of four ways: `[rbx+rcx*4-0x10]` (SIB), `[rip+0x2ff2]  # 0x404010`
/// (rip-relative, the address in the comment), `ds:0x0` (absolute: no brackets), and with a
/// segment before either (`es:[rdi]`, `fs:0x28`).
enum OperandAddress {
    /// One memory operand: its segment (`ds`, `es`, `fs`…), what addresses it, and its place
    /// among the operands (0 is the destination).
    struct Memory: Equatable {
        var segment: Substring?
        /// Inside the brackets, or the absolute address.
        var expression: Substring
        var position: Int
    }

    /// Words before the mnemonic that are not it.
    private static let prefixes: Set<Substring> = [
        "rep", "repz", "repnz", "repe", "repne", "lock", "bnd", "notrack", "data16", "addr32", "cs", "ds", "es", "ss", "fs", "gs",
    ]

    /// The mnemonic and the operands, the comment left out.
    static func split(_ instruction: String) -> (mnemonic: Substring, operands: [Substring]) {
        let code = instruction.prefix { $0 != "#" }
        var words = code.split(separator: " ", maxSplits: 1)[...]
        while let first = words.first, prefixes.contains(first), let rest = words.dropFirst().first {
            words = rest.split(separator: " ", maxSplits: 1)[...]
        }
        guard let mnemonic = words.first else { return ("", []) }
        var operands: [Substring] = []
        var depth = 0
        var start = words.dropFirst().first?.startIndex
        if let text = words.dropFirst().first {
            for index in text.indices {
                switch text[index] {
                case "[": depth += 1
                case "]": depth -= 1
                case "," where depth == 0:
                    operands.append(text[start!..<index])
                    start = text.index(after: index)
                default: break
                }
            }
            operands.append(text[start!...])
        }
        return (
            mnemonic,
            operands.map { operand in
                let start = operand.drop { $0 == " " || $0 == "\t" }
                return start[..<(start.lastIndex { $0 != " " && $0 != "\t" }.map(start.index(after:)) ?? start.startIndex)]
            }
        )
    }

    /// The memory operands of `operands`.
    static func memory(_ operands: [Substring]) -> [Memory] {
        operands.enumerated().compactMap { position, operand in
            // `DWORD PTR es:[rdi]`, `QWORD PTR [rip+0x2ff2]`, `DWORD PTR ds:0x0`, `fs:0x28`.
            let last = operand.split(separator: " ").last ?? operand
            if let open = last.firstIndex(of: "["), let close = last.lastIndex(of: "]"), open < close {
                let before = last[..<open]
                let segment = before.hasSuffix(":") ? before.dropLast() : nil
                return Memory(segment: segment, expression: last[last.index(after: open)..<close], position: position)
            }
            let parts = last.split(separator: ":")
            guard parts.count == 2, ["cs", "ds", "es", "ss", "fs", "gs"].contains(parts[0]), parts[1].hasPrefix("0x") else { return nil }
            return Memory(segment: parts[0], expression: parts[1], position: position)
        }
    }

    /// The memory operand's address, or the stack slot of a `push`, `call`, `pop` or `ret`; `nil`
    /// for what it cannot tell (an fs/gs base, two memory operands as in `movs`, none at all).
    static func of(_ instruction: String, in report: CrashReport) -> UInt64? {
        let (mnemonic, operands) = split(instruction)
        let stack = report.register(report.thirtyTwoBit ? "esp" : "rsp")
        let slot: UInt64 = report.thirtyTwoBit ? 4 : 8
        let memory = self.memory(operands)
        if let comment = instruction.firstRange(of: "# 0x"), memory.contains(where: { $0.expression.contains("rip") }) {
            return UInt64(instruction[comment.upperBound...].prefix { $0.isHexDigit }, radix: 16)
        }
        guard memory.count == 1, let operand = memory.first else {
            guard memory.isEmpty else { return nil }
            switch mnemonic {
            case "push", "call": return stack.map { $0 &- slot }
            case "pop", "ret": return stack
            default: return nil
            }
        }
        // cs, ds, es and ss start at 0 in flat code; fs and gs at a base the report does not have.
        // gdb writes a segment as part of the operand (`fs:[rax]`) or, where the operand has
        // none of its own in 64-bit code, before the mnemonic (`fs mov eax,DWORD PTR [rbx]`).
        let before = instruction[..<(instruction.firstRange(of: mnemonic)?.lowerBound ?? instruction.startIndex)]
        let segments = [operand.segment].compactMap { $0 } + before.split(separator: " ")
        if segments.contains(where: { $0 == "fs" || $0 == "gs" }) { return nil }
        var address: UInt64 = 0
        var term = ""
        var negative = false
        for character in operand.expression + "+" {
            guard character == "+" || character == "-" else {
                term.append(character)
                continue
            }
            guard let value = value(of: term, report) else { return nil }
            address = negative ? address &- value : address &+ value
            negative = character == "-"
            term = ""
        }
        return report.thirtyTwoBit ? address & 0xffff_ffff : address
    }

    /// `reading` or `writing`, from where the memory operand stands: the destination is written
    /// (but by `cmp`, `test`, `bt`, or a `push`/`call`/`jmp` through memory, which read it);
    /// `nil` without a memory operand or stack instruction.
    static func access(_ instruction: String) -> String? {
        let (mnemonic, operands) = split(instruction)
        let memory = self.memory(operands)
        guard let first = memory.first else {
            if ["push", "call"].contains(mnemonic) { return "writing" }
            if ["pop", "ret"].contains(mnemonic) { return "reading" }
            return nil
        }
        let reads: Set<Substring> = ["cmp", "test", "bt", "push", "call", "jmp", "lods", "scas", "cmps", "prefetch"]
        return first.position == 0 && !reads.contains(where: { mnemonic.hasPrefix($0) }) ? "writing" : "reading"
    }

    /// `0x10`, `rax`, `ecx*4`.
    private static func value(of term: String, _ report: CrashReport) -> UInt64? {
        let parts = term.split(separator: "*")
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let scale = parts.count == 2 ? UInt64(parts[1]) : 1
        guard let scale else { return nil }
        if parts[0].hasPrefix("0x") { return parts.count == 1 ? UInt64(parts[0].dropFirst(2), radix: 16) : nil }
        return register(String(parts[0]), report).map { $0 &* scale }
    }

    /// A register's value, the 32-bit names as the low half of their 64-bit register.
    private static func register(_ name: String, _ report: CrashReport) -> UInt64? {
        if let value = report.register(name) { return value }
        if name.hasPrefix("e"), let value = report.register("r" + name.dropFirst()) { return value & 0xffff_ffff }
        if name.hasPrefix("r"), name.hasSuffix("d"), let value = report.register(String(name.dropLast())) { return value & 0xffff_ffff }
        return nil
    }
}
