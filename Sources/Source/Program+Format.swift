import Support

extension Program {
    /// The object format of every source: `-f` or the main source's `format` directive when
    /// given; else elf32 when any source's own text says 32-bit (`bits 32`, a `format elf32`
    /// directive, `int 0x80`, esp/ebp as the stack pointer), which the sources that could be
    /// either follow; else elf64. `load` refuses 32-bit and 64-bit sources in one program.
    package var format: ObjectFormat {
        settings.format ?? (assembly.contains { $0.ownFormat == .elf32 } ? .elf32 : .elf64)
    }

    /// Something chose the format rather than asmrun's inference: `-f`, a `format` directive
    /// or `bits 32`.
    package var declaresFormat: Bool { settings.format != nil || assembly.contains(where: \.declaresFormat) }

    /// A source that is 32-bit by its own text and one that is 64-bit by its own, as one error
    /// naming both (at the 64-bit one's first 64-bit line); `nil` when they agree or the format
    /// was chosen for the whole program.
    func formatConflict() -> FileError? {
        guard settings.format == nil, let thirtyTwo = assembly.first(where: { $0.ownFormat == .elf32 }),
            let sixtyFour = assembly.first(where: { $0.ownFormat == .elf64 })
        else { return nil }
        let why =
            sixtyFour.settings.format == .elf64 ? "it says `; asmrun: format elf64`" : "this line names a 64-bit register or `syscall`"
        return FileError(
            path: sixtyFour.path, line: sixtyFour.settings.format == nil ? sixtyFour.sixtyFourBitLine : nil,
            problem: "is 64-bit code (\(why)) but \(thirtyTwo.path) is 32-bit code (\(thirtyTwo.thirtyTwoBitReason))",
            fix: "make them agree: a program is all 32-bit code (eax, `int 0x80`) or all 64-bit code (rax, `syscall`); "
                + "`-f elf32|elf64` or `; asmrun: format elf32|elf64` in \(main.path) chooses for every source")
    }

    /// What the user should hear about the format asmrun chose or the code's system calls: one
    /// note when the program was inferred to be 32-bit (naming the source that says so, and the
    /// sources that follow it), a warning for each 64-bit source that calls `int 0x80`.
    package var formatRemarks: [String] {
        var remarks: [String] = []
        if format == .elf32, !declaresFormat, let marked = assembly.first(where: \.looksLike32BitCode) {
            let following = assembly.filter { $0.ownFormat == nil }.map(\.path)
            let with = following.isEmpty ? "" : " with " + following.joined(separator: ", ")
            remarks.append(
                "\(marked.path): built as 32-bit code (elf32)\(with): \(marked.thirtyTwoBitReason); "
                    + "say `bits 32` or `; asmrun: format elf32` to make it explicit")
        }
        for source in assembly where format == .elf64 && source.usesInt80 {
            remarks.append(
                "\(source.path): warning: 64-bit code that calls `int 0x80` gets the 32-bit system calls on an x86_64 "
                    + "kernel, which see only the low 32 bits of each pointer, and the 64-bit ones with the same numbers under "
                    + "qemu-x86_64 (eax=1 is write there, not exit), so the two differ; use `syscall` with the 64-bit numbers")
        }
        return remarks
    }
}
