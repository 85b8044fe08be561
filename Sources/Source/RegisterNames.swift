/// The register names the syscall check tells apart: every spelling of rcx and r11 (which bytes
/// each covers and which a write to it sets), rax's (whose constant is the system call number),
/// rsp's (a write moves the stack), and the other registers (an operand naming one is not a
/// label), in any case.
enum RegisterNames {
    enum Family: Sendable { case rcx, r11, rax, rsp, other }

    /// One register operand.
    struct Reference: Equatable, Sendable {
        var family: Family
        /// The bytes of the 64-bit register it names.
        var covers: UInt8 = 0
        /// The bytes a write to it sets (a 32-bit write clears the upper half: all eight).
        var writes: UInt8 = 0
        /// Its index in `spellings` (rcx and r11 only).
        var spelling: UInt8 = 0
    }

    /// How reads are named in messages; index 0 is an implicit read.
    static let spellings = ["", "rcx", "ecx", "cx", "cl", "ch", "r11", "r11d", "r11w", "r11b", "r11l"]

    /// The register `word` is (in any case), or `nil` for any other word.
    static func reference(_ word: some BidirectionalCollection<UInt8>) -> Reference? {
        guard (2...5).contains(word.count), let first = word.first, !isDigit(first), let key = WordKey(word) else { return nil }
        if let reference = named[key] { return reference }
        return numbered(word) ? Reference(family: .other) : nil
    }

    private static let named: WordTable<Reference> = {
        var table = WordTable<Reference>(capacity: 64)
        let covers: [UInt8] = [0, 0xff, 0x0f, 0x03, 0x01, 0x02, 0xff, 0x0f, 0x03, 0x01, 0x01]
        for (index, name) in spellings.enumerated() where index > 0 {
            let writes: UInt8 = covers[index] >= 0x0f ? 0xff : covers[index]
            table[WordKey(name)] = Reference(family: index < 6 ? .rcx : .r11, covers: covers[index], writes: writes, spelling: UInt8(index))
        }
        for key in WordKey.keys("rax eax ax al ah") { table[key] = Reference(family: .rax) }
        for key in WordKey.keys("rsp esp sp spl") { table[key] = Reference(family: .rsp) }
        let others: StaticString = """
            rbx ebx bx bl bh rdx edx dx dl dh rsi esi si sil rdi edi di dil rbp ebp bp bpl rip eip cs ds es fs gs ss
            """
        for key in WordKey.keys(others) { table[key] = Reference(family: .other) }
        return table
    }()

    /// `r8`…`r15` (r11 is named) with `d`/`w`/`b`/`l`; `xmm`, `ymm`, `zmm`, `mm`, `k`, `st`,
    /// `cr`, `dr`, `tmm` with a number.
    private static func numbered(_ word: some BidirectionalCollection<UInt8>) -> Bool {
        let letters = word.prefix { !isDigit($0) }.map(AsmLex.lowercased)
        var digits = word.dropFirst(letters.count)
        if letters == [r], let last = digits.last.map(AsmLex.lowercased), [d, w, b, l].contains(last) { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy(isDigit) else { return false }
        let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        switch letters {
        case [r]: return (8...15).contains(number)
        case [x, m, m], [y, m, m], [z, m, m]: return number < 32
        case [m, m], [k], [s, t], [c, r], [d, r], [t, m, m]: return number < 16
        default: return false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static let (b, c, d, k, l, m, r, s, t, w, x, y, z) = (
        UInt8(ascii: "b"), UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "k"), UInt8(ascii: "l"), UInt8(ascii: "m"),
        UInt8(ascii: "r"), UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "w"), UInt8(ascii: "x"), UInt8(ascii: "y"),
        UInt8(ascii: "z")
    )
}
