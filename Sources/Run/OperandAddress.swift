import Sandbox

/// The address a faulting instruction accessed, worked out from its operand and the registers:
/// what the report shows when the signal came without one (qemu's gdbstub has no `$_siginfo`).
enum OperandAddress {
    /// The memory operand's address (`[rbx+rcx*4-0x10]`, `[rip+0x2ff2] # 0x404010`), or the
    /// stack slot of a `push`, `call`, `pop` or `ret`; `nil` for what it cannot tell (segment
    /// overrides, string instructions, no memory operand).
    static func of(_ instruction: String, in report: CrashReport) -> UInt64? {
        let mnemonic = instruction.prefix { $0 != " " }
        let stack = report.register(report.thirtyTwoBit ? "esp" : "rsp")
        let slot: UInt64 = report.thirtyTwoBit ? 4 : 8
        if let comment = instruction.firstRange(of: "# 0x") {
            return UInt64(instruction[comment.upperBound...].prefix { $0.isHexDigit }, radix: 16)
        }
        guard let open = instruction.firstIndex(of: "["), let close = instruction[open...].firstIndex(of: "]") else {
            switch mnemonic {
            case "push", "call": return stack.map { $0 &- slot }
            case "pop", "ret": return stack
            default: return nil
            }
        }
        let inside = instruction[instruction.index(after: open)..<close]
        guard !instruction[..<open].contains(":"), !mnemonic.hasPrefix("rep"),
            !["movs", "stos", "lods", "cmps", "scas"].contains(where: mnemonic.hasPrefix)
        else { return nil }
        var address: UInt64 = 0
        var term = ""
        var negative = false
        for character in inside + "+" {
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
