/// The program headers of an x86 ELF executable: its loadable segments (where its bytes are
/// mapped, with which rights), its dynamic loader and its stack. Two builds whose loadable
/// segments agree place every instruction and datum at the same address, so the line tables of
/// one name the lines of the other.
package struct ElfSegments: Sendable, Equatable {
    /// One program header.
    package struct Header: Sendable, Equatable {
        /// `p_type`: 1 `PT_LOAD`, 3 `PT_INTERP`, `0x6474e551` `PT_GNU_STACK`.
        var type: UInt32
        /// `PF_X | PF_W | PF_R`.
        package var flags: UInt32
        package var address: UInt64
        var fileSize: UInt64
        package var memorySize: UInt64
    }

    /// A 64-bit executable.
    var is64: Bool
    package var headers: [Header]

    /// The loadable segments (`PT_LOAD`), in order.
    package var loads: [Header] { headers.filter { $0.type == 1 } }

    /// It names a dynamic loader (`PT_INTERP`): it was linked against a shared C library.
    package var hasInterpreter: Bool { headers.contains { $0.type == 3 } }

    /// Its stack is executable: its `PT_GNU_STACK` header has `PF_X`; without one, the kernel
    /// makes an elf32 program's executable (with all its readable memory) and an elf64 program's
    /// not (Linux 5.8 and later; qemu-user alike).
    package var executableStack: Bool {
        headers.first { $0.type == 0x6474_e551 }.map { $0.flags & 1 != 0 } ?? !is64
    }

    /// Reads the program headers of `bytes` (an executable's start); `nil` when they are not there.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 52, bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]), bytes[5] == 1 else { return nil }
        is64 = bytes[4] == 2
        func integer(_ offset: Int, _ size: Int) -> UInt64? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            return (0..<size).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
        }
        let (word, is64) = (is64 ? 8 : 4, is64)
        guard let table = integer(is64 ? 0x20 : 0x1c, word), let size = integer(is64 ? 0x36 : 0x2a, 2),
            let count = integer(is64 ? 0x38 : 0x2c, 2), size >= (is64 ? 56 : 32), table < UInt64(bytes.count)
        else { return nil }
        headers = []
        for index in 0..<Int(count) {
            let at = Int(table) + index * Int(size)
            // p_flags follows p_type in elf64 and comes seventh in elf32.
            guard let type = integer(at, 4), let flags = integer(at + (is64 ? 4 : 24), 4),
                let address = integer(at + (is64 ? 16 : 8), word),
                let fileSize = integer(at + (is64 ? 32 : 16), word), let memorySize = integer(at + (is64 ? 40 : 20), word)
            else { return nil }
            headers.append(
                Header(type: UInt32(type), flags: UInt32(flags), address: address, fileSize: fileSize, memorySize: memorySize))
        }
    }
}
