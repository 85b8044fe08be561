import Source
import Support

/// One entry of the kernel's binfmt_misc registry (`/proc/sys/fs/binfmt_misc/NAME`): which files it
/// claims (a magic and mask at an offset, or a file-name extension) and the interpreter it runs.
package struct BinfmtHandler: Sendable, Equatable {
    package let name: String
    /// The entry's own switch (`enabled` / `disabled`, its first line).
    package let enabled: Bool
    package let interpreter: String
    /// Registration flags: `P` preserve argv[0], `O` open binary, `C` credentials, `F` fix binary.
    package let flags: String
    let offset: Int
    let magic: [UInt8]
    let mask: [UInt8]
    /// Set for an extension entry (`.exe`), which never claims an ELF file.
    let fileExtension: String?

    init(
        name: String, enabled: Bool, interpreter: String, flags: String = "", offset: Int = 0, magic: [UInt8] = [],
        mask: [UInt8] = [], fileExtension: String? = nil
    ) {
        self.name = name
        self.enabled = enabled
        self.interpreter = interpreter
        self.flags = flags
        self.offset = offset
        self.magic = magic
        self.mask = mask
        self.fileExtension = fileExtension
    }

    /// Parses the text the kernel shows for an entry; lines it does not know are ignored.
    init(name: String, text: String) {
        var enabled = false
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line == "enabled" || line == "disabled" {
                enabled = line == "enabled"
                continue
            }
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = line[..<space].hasSuffix(":") ? String(line[..<space].dropLast()) : String(line[..<space])
            fields[key] = String(line[line.index(after: space)...])
        }
        self.init(
            name: name, enabled: enabled, interpreter: fields["interpreter"] ?? "", flags: fields["flags"] ?? "",
            offset: fields["offset"].flatMap { Int($0) } ?? 0, magic: Self.bytes(fromHex: fields["magic"] ?? ""),
            mask: Self.bytes(fromHex: fields["mask"] ?? ""), fileExtension: fields["extension"])
    }

    /// Whether the kernel would hand an executable of `format` (as asmrun links it) to this entry,
    /// enabled or not: the entry's magic matches the ELF header under its mask.
    package func claims(_ format: ObjectFormat) -> Bool {
        let header = Self.elfHeader(format)
        guard fileExtension == nil, !magic.isEmpty, offset >= 0, offset + magic.count <= header.count else { return false }
        for (index, byte) in magic.enumerated() {
            let bits = index < mask.count ? mask[index] : 0xff
            if (header[offset + index] ^ byte) & bits != 0 { return false }
        }
        return true
    }

    /// The first 24 bytes of an executable `ld` writes for `format`: ELF magic, class, little
    /// endian, version 1, System V ABI, `ET_EXEC`, the machine (x86-64 or i386), version 1.
    static func elfHeader(_ format: ObjectFormat) -> [UInt8] {
        let elfClass: UInt8 = format == .elf64 ? 2 : 1
        let machine: UInt8 = format == .elf64 ? 0x3e : 0x03
        return [0x7f, 0x45, 0x4c, 0x46, elfClass, 1, 1, 0] + Array(repeating: 0, count: 8) + [2, 0, machine, 0, 1, 0, 0, 0]
    }

    /// `7f454c46` as bytes; an odd digit count or a non-hex digit gives no bytes (a magic that claims nothing).
    static func bytes(fromHex text: String) -> [UInt8] {
        HexDigits.bytes(text) ?? []
    }
}
