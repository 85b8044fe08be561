import Foundation
import Testing

@testable import Build
@testable import Sandbox
@testable import Support

/// The in-process symbol reader on objects and archives nasm and ar really produced.
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"))
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
