import Source

/// The symbols of a relocatable ELF object (or every member of an `ar` archive), read in
/// process: which global symbols it defines and which it needs from elsewhere. This is how the
/// link step is decided after assembling, whatever macros chose the entry point.
package struct ElfSymbols: Sendable, Equatable {
    /// 64-bit or 32-bit x86 ELF; `nil` for another machine or class.
    package var format: ObjectFormat?
    /// Global and weak symbols the object defines.
    package var defined: Set<String> = []
    /// Global symbols it uses but does not define.
    package var undefined: Set<String> = []
    /// Weak symbols among `defined` (a second definition does not clash with them).
    var weak: Set<String> = []
    /// Local labels it defines (not sections or file names): a `_start` here lacks its `global`.
    package var local: Set<String> = []
    /// What its `.note.GNU-stack` section asks of the stack (an archive: the most any member asks).
    var stackNote = StackNote.missing

    /// Reads an object or an archive; `nil` when the bytes are neither.
    package init?(_ bytes: [UInt8]) {
        if bytes.starts(with: Array("!<arch>\n".utf8)) {
            guard let archive = Self.archive(bytes) else { return nil }
            self = archive
            return
        }
        guard let reader = ElfReader(bytes), let object = reader.symbols() else { return nil }
        self = object
        stackNote = reader.stackNote()
    }

    /// Whether an executable's stack is executable (`ElfSegments.executableStack`); `nil` for
    /// bytes that are not ELF.
    package static func executableStack(_ bytes: [UInt8]) -> Bool? { ElfSegments(bytes)?.executableStack }

    /// Whether an executable names a dynamic loader (a `PT_INTERP` program header): it was linked
    /// against a shared C library.
    package static func hasInterpreter(_ bytes: [UInt8]) -> Bool { ElfSegments(bytes)?.hasInterpreter ?? false }

    /// An executable's entry point (`e_entry`): where its first instruction is.
    package static func entryPoint(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count >= 52, bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]) else { return nil }
        let size = bytes[4] == 2 ? 8 : 4
        return (0..<size).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[0x18 + $1]) }
    }

    init(format: ObjectFormat?, defined: Set<String> = [], undefined: Set<String> = []) {
        self.format = format
        self.defined = defined
        self.undefined = undefined
    }

    /// An archive: the union of its ELF members (a member is linked only when needed, so its
    /// undefined symbols are not the program's needs; only what it can provide counts).
    /// The sections of an executable or object that hold code, where they are loaded: what
    /// tells a program that ran past its last instruction from one that jumped astray.
    package static func codeSections(_ bytes: [UInt8]) -> [CodeSection] {
        ElfReader(bytes)?.codeSections() ?? []
    }

    /// The loaded sections a program cannot write (`.text`, `.rodata`, …), where they are loaded:
    /// what names the section a write faulted in.
    package static func readOnlySections(_ bytes: [UInt8]) -> [CodeSection] {
        ElfReader(bytes)?.loadedSections { $0 & 3 == 2 } ?? []  // SHF_ALLOC without SHF_WRITE
    }

    private static func archive(_ bytes: [UInt8]) -> ElfSymbols? {
        var result = ElfSymbols(format: nil)
        var offset = 8
        while offset + 60 <= bytes.count {
            let header = bytes[offset..<offset + 60]
            guard
                let size = Int(String(decoding: header[(offset + 48)..<(offset + 58)], as: UTF8.self).trimmingBlanks())
            else { return nil }
            let start = offset + 60
            guard size >= 0, start + size <= bytes.count else { return nil }
            if let reader = ElfReader(Array(bytes[start..<start + size])), let member = reader.symbols() {
                result.format = result.format ?? member.format
                result.defined.formUnion(member.defined)
                result.stackNote = max(result.stackNote, reader.stackNote())
            }
            offset = start + size + (size % 2)
        }
        return result
    }
}

/// What an object's `.note.GNU-stack` section asks of the stack, least to most.
enum StackNote: Int, Sendable, Comparable {
    /// No such section (nasm writes none unless the source makes one).
    case missing
    /// The section without `SHF_EXECINSTR`: the object needs no executable stack.
    case nonExecutable
    /// The section with `SHF_EXECINSTR` (`section .note.GNU-stack exec`, gcc's trampolines):
    /// GNU ld makes the stack executable.
    case executable

    package static func < (left: StackNote, right: StackNote) -> Bool { left.rawValue < right.rawValue }
}

/// A loaded section with code (`SHF_ALLOC | SHF_EXECINSTR`).
package struct CodeSection: Sendable, Equatable {
    package var name: String
    package var start: UInt64
    package var end: UInt64

    package init(name: String, start: UInt64, end: UInt64) {
        self.name = name
        self.start = start
        self.end = end
    }

    package func contains(_ address: UInt64) -> Bool { start <= address && address < end }
}

/// Just enough of the ELF format (the System V gABI) to walk the section headers to `.symtab`.
private struct ElfReader {
    let bytes: [UInt8]
    let is64: Bool
    let format: ObjectFormat?

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 52, bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]), bytes[5] == 1 else { return nil }  // little-endian
        self.bytes = bytes
        is64 = bytes[4] == 2
        guard is64 || bytes[4] == 1, !is64 || bytes.count >= 64 else { return nil }
        let machine = Int(bytes[18]) | Int(bytes[19]) << 8
        switch (is64, machine) {
        case (true, 62): format = .elf64  // EM_X86_64
        case (false, 3): format = .elf32  // EM_386
        default: format = nil
        }
    }

    func symbols() -> ElfSymbols? {
        let sectionOffset = is64 ? integer(at: 0x28, size: 8) : integer(at: 0x20, size: 4)
        let entrySize = integer(at: is64 ? 0x3a : 0x2e, size: 2)
        let count = integer(at: is64 ? 0x3c : 0x30, size: 2)
        guard let sectionOffset, let entrySize, let count, entrySize >= (is64 ? 64 : 40) else { return nil }
        var result = ElfSymbols(format: format)
        for index in 0..<count {
            let header = sectionOffset + index * entrySize
            guard integer(at: header + 4, size: 4) == 2 else { continue }  // SHT_SYMTAB
            guard let table = section(at: header), let link = integer(at: header + (is64 ? 40 : 24), size: 4),
                let strings = section(at: sectionOffset + link * entrySize)
            else { return nil }
            read(table: table, strings: strings, into: &result)
        }
        return result
    }

    func codeSections() -> [CodeSection] {
        loadedSections { $0 & 6 == 6 }  // SHF_ALLOC | SHF_EXECINSTR
    }

    /// The sections whose flags pass `test`, with a size and an address.
    func loadedSections(where test: (Int) -> Bool) -> [CodeSection] {
        let word = is64 ? 8 : 4
        return namedSections().compactMap { header, name in
            guard let flags = integer(at: header + 8, size: word), test(flags),
                let start = integer(at: header + (is64 ? 16 : 12), size: word),
                let size = integer(at: header + (is64 ? 32 : 20), size: word)
            else { return nil }
            return CodeSection(name: name, start: UInt64(start), end: UInt64(start) + UInt64(size))
        }
    }

    func stackNote() -> StackNote {
        guard let header = namedSections().first(where: { $0.name == ".note.GNU-stack" })?.header else { return .missing }
        let flags = integer(at: header + 8, size: is64 ? 8 : 4) ?? 0
        return flags & 4 != 0 ? .executable : .nonExecutable  // SHF_EXECINSTR
    }

    /// Each section header's offset in the file, with the section's name.
    private func namedSections() -> [(header: Int, name: String)] {
        let sectionOffset = is64 ? integer(at: 0x28, size: 8) : integer(at: 0x20, size: 4)
        let entrySize = integer(at: is64 ? 0x3a : 0x2e, size: 2)
        let count = integer(at: is64 ? 0x3c : 0x30, size: 2)
        let namesIndex = integer(at: is64 ? 0x3e : 0x32, size: 2)
        guard let sectionOffset, let entrySize, let count, let namesIndex, entrySize >= (is64 ? 64 : 40),
            let names = section(at: sectionOffset + namesIndex * entrySize)
        else { return [] }
        return (0..<count).compactMap { index in
            let header = sectionOffset + index * entrySize
            guard let nameOffset = integer(at: header, size: 4), let name = string(at: names.lowerBound + nameOffset, in: names)
            else { return nil }
            return (header, name)
        }
    }

    /// The symbol table's global and weak entries; index 0 is the null symbol.
    private func read(table: Range<Int>, strings: Range<Int>, into result: inout ElfSymbols) {
        let size = is64 ? 24 : 16
        var entry = table.lowerBound + size
        while entry + size <= table.upperBound {
            let info = Int(bytes[entry + (is64 ? 4 : 12)])
            let binding = info >> 4
            let sectionIndex = integer(at: entry + (is64 ? 6 : 14), size: 2) ?? 0
            let type = info & 0xf
            if binding == 0, sectionIndex != 0, type <= 2, let nameOffset = integer(at: entry, size: 4), nameOffset != 0,
                let name = string(at: strings.lowerBound + nameOffset, in: strings)
            {
                result.local.insert(name)
            } else if binding == 1 || binding == 2, let nameOffset = integer(at: entry, size: 4),
                let name = string(at: strings.lowerBound + nameOffset, in: strings)
            {
                if sectionIndex == 0 {
                    if binding == 1 { result.undefined.insert(name) }
                } else {
                    result.defined.insert(name)
                    if binding == 2 { result.weak.insert(name) }
                }
            }
            entry += size
        }
        result.undefined.subtract(result.defined)
    }

    /// A section's bytes from its header at `header`, when they lie inside the file.
    private func section(at header: Int) -> Range<Int>? {
        let offset = integer(at: header + (is64 ? 24 : 16), size: is64 ? 8 : 4)
        let size = integer(at: header + (is64 ? 32 : 20), size: is64 ? 8 : 4)
        guard let offset, let size, offset <= bytes.count, size <= bytes.count - offset else { return nil }
        return offset..<offset + size
    }

    private func string(at start: Int, in strings: Range<Int>) -> String? {
        guard strings.contains(start) else { return nil }
        let end = bytes[start..<strings.upperBound].firstIndex(of: 0) ?? strings.upperBound
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// A little-endian unsigned integer of `size` bytes, when it lies inside the file.
    private func integer(at offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        var value = 0
        for index in (0..<size).reversed() {
            guard value <= Int.max >> 8 else { return nil }
            value = value << 8 | Int(bytes[offset + index])
        }
        return value
    }
}
