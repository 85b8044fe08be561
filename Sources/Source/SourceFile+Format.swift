extension SourceFile {
    /// The format the source's own text asks for: its `format` directive (or `-f`, for the main
    /// source), `bits 32`, the marks of 32-bit code, or those of 64-bit code; `nil` for code
    /// that could be either, which follows the program's other sources.
    var ownFormat: ObjectFormat? {
        if let format = settings.format { return format }
        if declaresBits32 || looksLike32BitCode { return .elf32 }
        return uses64BitCode ? .elf64 : nil
    }

    /// The format it would be built as on its own: `ownFormat`, else elf64.
    package var format: ObjectFormat { ownFormat ?? .elf64 }

    /// Says which format it is rather than leaving it to asmrun: a `format` directive or `bits 32`.
    package var declaresFormat: Bool { settings.format != nil || declaresBits32 }

    /// `int 0x80`, or esp/ebp used as the stack pointer, without any 64-bit register or
    /// `syscall`: tutorial and cdecl code that never says `bits 32` assembles as elf64 and then
    /// crashes (under qemu-x86_64, which has no 32-bit system calls for 64-bit programs, or
    /// wherever a cut stack pointer is used as an address).
    var looksLike32BitCode: Bool { (usesInt80 || stackLine != nil) && !uses64BitCode }

    /// Why its text is 32-bit code, for the notes and the errors ("it uses `int 0x80`").
    var thirtyTwoBitReason: String {
        if settings.format == .elf32 { return "it says `; asmrun: format elf32`" }
        if declaresBits32 { return "it says `bits 32`" }
        if usesInt80 { return "it uses `int 0x80` and no 64-bit register" }
        return "it uses esp/ebp as the stack pointer (line \(stackLine ?? 0)) and no 64-bit register"
    }
}
