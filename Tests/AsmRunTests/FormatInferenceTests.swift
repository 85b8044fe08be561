import Foundation
import Support
import Testing

@testable import Source

/// Which sources are 32-bit code: the scanner's marks (esp/ebp as the stack pointer, `int 0x80`,
/// 64-bit registers and `syscall`), a source's own format, and a program's sources agreeing
/// across files, with `-f` and the main source's directive choosing for all of them.
@Suite struct FormatInferenceTests {
    private func scan(_ text: String) -> SourceScan { SourceScan(Array(text.utf8)) }

    /// Each way cdecl code uses esp or ebp as its stack pointer, found on its line.
    @Test(arguments: [
        "  mov eax, [esp+4]", "  mov eax, [esp]", "  mov dword [ esp + 8 ], 3", "  mov eax, [ebp+8]", "  mov [ebp-4], eax",
        "  lea eax, [EBP - 12]", "  add esp, 8", "  SUB ESP,16", "  mov ebp, esp", "lbl: mov ebp,esp", "  mov esp, ebp",
        "  push dword [ebp+12]",
    ])
    func stackPointerUsesAreMarks(line: String) {
        let found = scan("section .text\nf:\n\(line) ; comment\n  ret\n")
        #expect(found.stackLine == 3, "\(line)")
        #expect(!found.names64BitRegister && !found.usesSyscall && found.sixtyFourBitLine == nil)
    }

    /// Register uses that say nothing about the stack, and esp/ebp in comments, strings and
    /// longer words.
    @Test(arguments: [
        "  mov ebp, eax", "  xor ebp, ebp", "  add ebp, 8", "  mov eax, esp", "  push ebp", "  pop ebp", "  sub eax, esp",
        "  mov esp_top, 1", "  ; mov eax, [esp+4]", "  db \"[esp+4]\", 0", "  db 'add esp, 8'", "  mov eax, [ebx+4]",
        "  add espx, 8", "  mov ebpx, esp", "  cmp ebp, esp",
    ])
    func otherUsesAreNot(line: String) {
        #expect(scan("f:\n\(line)\n").stackLine == nil, "\(line)")
    }

    @Test func sixtyFourBitMarksKeepTheirFirstLine() {
        let registers = scan("f:\n  mov eax, [esp+4]\n  mov [rsp+8], rax\n  syscall\n")
        #expect(registers.stackLine == 2 && registers.sixtyFourBitLine == 3 && registers.names64BitRegister && registers.usesSyscall)
        let call = scan("f:\n  mov eax, 60\n  SYSCALL\n  mov r9d, 1\n")
        #expect(call.sixtyFourBitLine == 3 && call.usesSyscall && call.names64BitRegister)
    }

    @Test func stackCodeWithoutSixtyFourBitMarksIsThirtyTwoBit() throws {
        let cdecl = try SourceFile(path: "c.asm", text: "global main\nmain:\n  push ebp\n  mov ebp, esp\n  leave\n  ret\n")
        #expect(cdecl.looksLike32BitCode && cdecl.ownFormat == .elf32 && cdecl.format == .elf32)
        let sixtyFour = try SourceFile(path: "s.asm", text: "main:\n  mov eax, [rsp+8]\n  sub esp, 8\n")
        #expect(!sixtyFour.looksLike32BitCode && sixtyFour.ownFormat == .elf64, "[rsp+8] names a 64-bit register")
        let withSyscall = try SourceFile(path: "y.asm", text: "_start:\n  mov eax, [esp]\n  syscall\n")
        #expect(withSyscall.ownFormat == .elf64)
        let neutral = try SourceFile(path: "n.asm", text: "f:\n  mov eax, 1\n  ret\n")
        #expect(neutral.ownFormat == nil && neutral.format == .elf64)
    }

    private func program(_ sources: [(String, String)], format: ObjectFormat? = nil) throws -> Program {
        var files = try sources.map { try SourceFile(path: $0.0, text: $0.1) }
        files[0].settings.format = format ?? files[0].settings.format
        return Program(path: files[0].path, name: files[0].stem, isFolder: false, assembly: files)
    }

    private static let int80 = ("a.asm", "global _start\n_start:\n  call f\n  mov eax, 1\n  int 0x80\n")
    private static let neutral = ("b.asm", "global f\nf:\n  mov eax, 4\n  ret\n")
    private static let cdecl = ("c.asm", "global f\nf:\n  mov eax, [esp+4]\n  ret\n")
    private static let sixtyFour = ("d.asm", "global f\nf:\n  mov eax, 1\n  mov rdi, 2\n  ret\n")

    @Test func aThirtyTwoBitSourceMakesItsPartnersThirtyTwoBit() throws {
        for sources in [[Self.int80, Self.neutral], [Self.neutral, Self.int80], [Self.neutral, Self.cdecl]] {
            let both = try program(sources)
            #expect(both.format == .elf32 && both.formatConflict() == nil, "\(sources.map(\.0))")
            let marked = sources.first { $0.0 != "b.asm" }!.0
            #expect(
                both.formatRemarks == [
                    "\(marked): built as 32-bit code (elf32) with b.asm: \(both.assembly.first { $0.path == marked }!.thirtyTwoBitReason); say `bits 32` or `; asmrun: format elf32` to make it explicit"
                ])
        }
        #expect(try program([Self.cdecl]).formatRemarks.first?.contains("it uses esp/ebp as the stack pointer (line 3)") == true)
        #expect(try program([Self.neutral, Self.neutral]).format == .elf64)
        let declared = try program([Self.neutral, ("e.asm", "; asmrun: format elf32\nglobal g\ng: ret\n")])
        #expect(declared.format == .elf32 && declared.formatRemarks.isEmpty, "a directive says it: nothing to add")
    }

    @Test func aSixtyFourBitPartnerOfThirtyTwoBitCodeIsOneLineNamingBoth() throws {
        let error = try #require(try program([Self.int80, Self.sixtyFour]).formatConflict())
        #expect(error.location == FileLocation("d.asm", line: 4))
        #expect(
            error.problem
                == "is 64-bit code (this line names a 64-bit register or `syscall`) but a.asm is 32-bit code (it uses `int 0x80` and no 64-bit register)"
        )
        #expect(error.fix?.contains("`; asmrun: format elf32|elf64` in a.asm chooses for every source") == true)
        #expect(!"\(error)".contains("\n"))
        let stack = try #require(try program([Self.sixtyFour, Self.cdecl]).formatConflict())
        #expect(stack.problem.hasSuffix("but c.asm is 32-bit code (it uses esp/ebp as the stack pointer (line 3) and no 64-bit register)"))
    }

    /// `-f` (or the main source's directive) chooses for every source, whatever their marks.
    @Test func theChosenFormatAppliesToEverySource() throws {
        for format in ObjectFormat.allCases {
            let chosen = try program([Self.int80, Self.sixtyFour], format: format)
            #expect(chosen.format == format && chosen.formatConflict() == nil && chosen.declaresFormat)
        }
        #expect(
            try program([Self.int80, Self.sixtyFour], format: .elf64).formatRemarks.first?.hasPrefix(
                "a.asm: warning: 64-bit code that calls `int 0x80`") == true)
        #expect(try program([Self.int80, Self.neutral], format: .elf32).formatRemarks.isEmpty)
    }

    /// `Program.load` applies the command line's settings before it checks that the sources agree.
    @Test func loadingWithFormatOverridesTheSourcesMarks() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.int80.1, to: directory + "/a.asm")
        try Fixture.write(Self.sixtyFour.1, to: directory + "/d.asm")
        let paths = [directory + "/a.asm", directory + "/d.asm"]
        #expect(throws: FileError.self) { try Program.load(files: paths) }
        let loaded = try Program.load(files: paths) { $0.format = .elf64 }
        #expect(loaded.format == .elf64 && loaded.assembly.count == 2)
    }
}
