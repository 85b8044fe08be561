/// The loadable segments (`PT_LOAD` program headers) of an x86 ELF executable: where its bytes
/// are mapped and with which rights. Two builds whose segments agree place every instruction and
/// datum at the same address, so the line tables of one name the lines of the other.
package struct ElfSegments: Sendable, Equatable {
    /// One `PT_LOAD` entry.
    package struct Load: Sendable, Equatable {
        package var address: UInt64
        package var fileSize: UInt64
        package var memorySize: UInt64
        /// `PF_X | PF_W | PF_R`.
        package var flags: UInt32
    }

    package var loads: [Load]

    /// Reads the program headers of `bytes` (an executable's start); `nil` when they are not there.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 52, bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]), bytes[5] == 1 else { return nil }
        let is64 = bytes[4] == 2
        func integer(_ offset: Int, _ size: Int) -> UInt64? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            return (0..<size).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
        }
        guard let table = integer(is64 ? 0x20 : 0x1c, is64 ? 8 : 4), let size = integer(is64 ? 0x36 : 0x2a, 2),
            let count = integer(is64 ? 0x38 : 0x2c, 2), size >= (is64 ? 56 : 32), table < UInt64(bytes.count)
        else { return nil }
        var loads: [Load] = []
        for index in 0..<Int(count) {
            let header = Int(table) + index * Int(size)
            guard let type = integer(header, 4) else { return nil }
            guard type == 1 else { continue }  // PT_LOAD
            let word = is64 ? 8 : 4
            guard let flags = integer(header + (is64 ? 4 : 24), 4), let address = integer(header + (is64 ? 16 : 8), word),
                let fileSize = integer(header + (is64 ? 32 : 16), word), let memorySize = integer(header + (is64 ? 40 : 20), word)
            else { return nil }
            loads.append(Load(address: address, fileSize: fileSize, memorySize: memorySize, flags: UInt32(flags)))
        }
        self.loads = loads
    }
}
