/// The register names the syscall check tells apart: every spelling of rcx and r11 (which bytes
/// each covers and which a write to it sets), rax's (whose constant is the system call number),
/// and the other general registers (an operand naming one is not a label).
enum RegisterNames {
    enum Family { case rcx, r11, rax, rsp, other }

    /// One register operand.
    struct Reference: Equatable {
        var family: Family
        /// The bytes of the 64-bit register it names.
        var covers: UInt8
        /// The bytes a write to it sets (a 32-bit write clears the upper half: all eight).
        var writes: UInt8
        /// Its index in `spellings` (rcx and r11 only).
        var spelling: UInt8
    }

    /// How reads are named in messages; index 0 is an implicit read.
    static let spellings = ["", "rcx", "ecx", "cx", "cl", "ch", "r11", "r11d", "r11w", "r11b", "r11l"]

    /// The register `name` (in lower case) is, or `nil` for any other word.
    static func reference(_ name: String) -> Reference? {
        name.utf8.count <= 5 ? table[name] : nil
    }

    private static let table: [String: Reference] = {
        var table: [String: Reference] = [:]
        let covers: [UInt8] = [0, 0xff, 0x0f, 0x03, 0x01, 0x02, 0xff, 0x0f, 0x03, 0x01, 0x01]
        for (index, name) in spellings.enumerated() where index > 0 {
            let writes: UInt8 = covers[index] >= 0x0f ? 0xff : covers[index]
            table[name] = Reference(family: index < 6 ? .rcx : .r11, covers: covers[index], writes: writes, spelling: UInt8(index))
        }
        for name in ["rax", "eax", "ax", "al", "ah"] { table[name] = Reference(family: .rax, covers: 0, writes: 0, spelling: 0) }
        for name in ["rsp", "esp", "sp", "spl"] { table[name] = Reference(family: .rsp, covers: 0, writes: 0, spelling: 0) }
        var others = [
            "rbx", "ebx", "bx", "bl", "bh", "rdx", "edx", "dx", "dl", "dh", "rsi", "esi", "si", "sil", "rdi", "edi", "di", "dil",
            "rbp", "ebp", "bp", "bpl", "rip", "eip", "cs", "ds", "es", "fs", "gs", "ss",
        ]
        for number in [8, 9, 10, 12, 13, 14, 15] { others += ["", "d", "w", "b", "l"].map { "r\(number)\($0)" } }
        for number in 0..<32 { others += ["xmm", "ymm", "zmm"].map { "\($0)\(number)" } }
        for number in 0..<8 { others += ["mm", "k", "st", "cr", "dr", "tmm"].map { "\($0)\(number)" } }
        for name in others { table[name] = Reference(family: .other, covers: 0, writes: 0, spelling: 0) }
        return table
    }()
}
