import Foundation
import Processes
import Support
import Testing

@testable import Build

/// The in-process symbol reader on objects and archives nasm and ar really produced.
@Suite(.tags(.integration), .needsTools)
struct ElfSymbolsTests {
    private func assemble(_ text: String, format: String, in directory: String, name: String) throws -> String {
        try Fixture.write(text, to: directory + "/\(name).asm")
        let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("nasm", ["-f", format, "-o", directory + "/\(name).o", directory + "/\(name).asm"]), options: LaunchOptions())
        #expect(result.termination == .exited(0), "\(String(decoding: result.stderr, as: UTF8.self))")
        return directory + "/\(name).o"
    }

    @Test func definedAndNeededGlobalsOfBothFormats() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let text = "%define ENTRY main\nextern printf\nglobal ENTRY, helper\nENTRY: call printf\nhelper: ret\nlocal_label: ret\n"
        let object64 = try Files.read(try assemble(text, format: "elf64", in: directory, name: "a"))
        let symbols = try #require(ElfSymbols(object64))
        #expect(symbols.format == .elf64)
        #expect(symbols.defined == ["main", "helper"], "a macro's entry point is seen; a local label is not global")
        #expect(symbols.undefined == ["printf"])
        let object32 = try Files.read(try assemble("global _start\n_start: int 0x80\n", format: "elf32", in: directory, name: "b"))
        #expect(ElfSymbols(object32) == ElfSymbols(format: .elf32, defined: ["_start"]))
    }

    @Test func anArchiveProvidesWhatItsMembersDefine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let first = try assemble("global one\none: ret\n", format: "elf64", in: directory, name: "one")
        let second = try assemble("extern puts\nglobal two\ntwo: call puts\n", format: "elf64", in: directory, name: "two")
        let archive = directory + "/libnums.a"
        let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("ar", ["rcs", archive, first, second]), options: LaunchOptions())
        #expect(result.termination == .exited(0))
        let symbols = try #require(ElfSymbols(try Files.read(archive)))
        #expect(symbols.defined == ["one", "two"])
        #expect(symbols.undefined.isEmpty, "an archive member's needs count only when it is linked")
    }

    @Test func theStackNoteOfObjectsAndArchives() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let note = { (flags: String, name: String) in
            try self.assemble(
                "section .note.GNU-stack noalloc \(flags) nowrite progbits\nsection .text\nglobal \(name)\n\(name): ret\n",
                format: "elf64", in: directory, name: name)
        }
        let none = try assemble("global _start\n_start: ret\n", format: "elf64", in: directory, name: "none")
        let quiet = try note("noexec", "quiet")
        let exec = try note("exec", "exec")
        #expect(ElfSymbols(try Files.read(none))?.stackNote == .missing, "nasm writes no note of its own")
        #expect(ElfSymbols(try Files.read(quiet))?.stackNote == .nonExecutable)
        #expect(ElfSymbols(try Files.read(exec))?.stackNote == .executable)
        let exec32 = try assemble(
            "section .note.GNU-stack exec\nsection .text\nglobal _start\n_start: ret\n", format: "elf32", in: directory, name: "e32")
        #expect(ElfSymbols(try Files.read(exec32))?.stackNote == .executable, "`exec` alone, in elf32")
        for (members, expected) in [([none, quiet], StackNote.nonExecutable), ([quiet, exec, none], .executable)] {
            let archive = directory + "/lib\(members.count).a"
            let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
                Command("ar", ["rcs", archive] + members), options: LaunchOptions())
            #expect(result.termination == .exited(0))
            #expect(ElfSymbols(try Files.read(archive))?.stackNote == expected, "the most any member asks")
        }
    }

    /// PT_GNU_STACK as GNU ld writes it, and the kernel's default where it writes none.
    @Test(arguments: [
        ("elf64", ["-z", "execstack"], true), ("elf64", ["-z", "noexecstack"], false), ("elf64", [], false),
        ("elf32", ["-z", "execstack"], true), ("elf32", ["-z", "noexecstack"], false), ("elf32", [], true),
    ])
    func theExecutablesStack(format: String, flags: [String], executable: Bool) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let object = try assemble("global _start\n_start: ret\n", format: format, in: directory, name: "p")
        let emulation = format == "elf64" ? "elf_x86_64" : "elf_i386"
        let linked = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("ld", ["-m", emulation] + flags + ["-o", directory + "/p", object]), options: LaunchOptions())
        #expect(linked.termination == .exited(0), "\(String(decoding: linked.stderr, as: UTF8.self))")
        #expect(ElfSymbols.executableStack(try Files.read(directory + "/p")) == executable)
    }

    @Test func damagedObjectsNeverTrap() throws {
        #expect(ElfSymbols(Array("not an object".utf8)) == nil)
        var truncated = [UInt8]([0x7f, 0x45, 0x4c, 0x46, 2, 1]) + [UInt8](repeating: 0, count: 58)
        truncated[0x28] = 0xff  // section headers past the end of the file
        truncated[0x3a] = 64
        truncated[0x3c] = 1
        #expect(ElfSymbols(truncated) == ElfSymbols(format: nil))
        // Every byte of a real object flipped in turn, with a fixed pattern: no trap, whatever it reads.
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let object = try Files.read(try assemble("extern f\nglobal g\ng: call f\n", format: "elf64", in: directory, name: "m"))
        var survived = 0
        for index in object.indices {
            var damaged = object
            damaged[index] ^= UInt8(truncatingIfNeeded: index &* 37 | 1)
            _ = ElfSymbols(damaged)
            survived += 1
        }
        #expect(survived == object.count)
    }
}
