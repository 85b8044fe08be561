import Foundation
import Glibc
import Testing

@testable import Source
@testable import Support

@Suite struct SourceFileTests {
    @Test func detectsBitnessAndEntryPoints() throws {
        let thirtyTwo = try SourceFile(path: "a.asm", text: "  [BITS 32] ; comment\nsection .text\nglobal _start\n_start:\n")
        #expect(thirtyTwo.declaresBits32 && thirtyTwo.format == .elf32 && thirtyTwo.definesStart)
        let libc = try SourceFile(path: "b.asm", text: "extern printf\nglobal main\nmain:\n  call printf\n")
        #expect(libc.definesMain && !libc.definesStart && libc.resolvedLink == .cc)
        let both = try SourceFile(path: "c.asm", text: "global _start, _main\n_start:\n_main:\n")
        #expect(both.resolvedLink == .ld)
        let commented = try SourceFile(path: "d.asm", text: "; bits 32\nmov eax, 1 ; global main\n")
        #expect(!commented.declaresBits32 && !commented.definesMain)
    }

    @Test func readsDirectives() throws {
        let text = """
            ; asmrun: format elf32
            ; asmrun: link cc
            ;asmrun: timeout 2.5
            ; asmrun: skip qemu AVX-512 is not emulated
            ; asmrun: xfail all known bug
            ; asmrun: qemu-cpu qemu64
            ; asmrun: limit memory 64M
            %include "lib/io.asm" ; helpers
            """
        let source = try SourceFile(path: "dir/x.asm", text: text)
        #expect(source.settings.format == .elf32)
        #expect(source.settings.link == .cc)
        #expect(source.settings.timeout == 2.5)
        #expect(source.settings.skipReason(for: "qemu") == "AVX-512 is not emulated")
        #expect(source.settings.skipReason(for: "native") == nil)
        #expect(source.settings.expectedFailure(for: "native") == "known bug")
        #expect(source.settings.qemuCPU == "qemu64")
        #expect(source.settings.limits.addressSpace == 64 << 20)
        #expect(source.includes == ["lib/io.asm"])
        #expect(source.stem == "x" && source.directory == "dir")
    }

    @Test func badDirectiveNamesFileAndLine() {
        #expect(
            throws: FileError(
                path: "x.asm", line: 2, problem: "unknown format `elf16` (use elf64 or elf32)", fix: "fix the `; asmrun:` line")
        ) {
            try SourceFile(path: "x.asm", text: "nop\n; asmrun: format elf16\n")
        }
        let unknown = #expect(throws: FileError.self) { try SourceFile(path: "x.asm", text: "; asmrun: frobnicate\n") }
        #expect(unknown?.location == FileLocation("x.asm", line: 1))
    }

    @Test func unusableFilesGiveOneLineErrors() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let empty = directory + "/empty.asm"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let binary = directory + "/binary.asm"
        _ = FileManager.default.createFile(atPath: binary, contents: Data([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]))
        let cases: [(String, String)] = [
            (empty, "is empty"), (binary, "is a binary file, not assembly source"), (directory, "is a directory"),
            (directory + "/missing.asm", "no such file"),
        ]
        mkfifo(directory + "/fifo.asm", 0o644)
        let all = cases + [(directory + "/fifo.asm", "is not a regular file")]
        for (path, problem) in all {
            let error = try #require(throws: FileError.self) { try SourceFile.load(path) }
            #expect(error.problem == problem)
            #expect(!error.message.contains("\n"))
            #expect(error.message.hasPrefix(path + ": "))
        }
    }

    @Test func oneScannerForCommentsQuotesCaseAndCRLF() throws {
        let text = "; asmrun: format elf32\r\nGLOBAL _start\r\n  db \"a;b\", 'c;' ; global main\r\nmsg: db `x\\`;` ; bits 32\r\n"
        let source = try SourceFile(path: "w.asm", text: text)
        #expect(source.settings.format == .elf32, "a CRLF directive parses")
        #expect(source.definesStart && !source.definesMain, "`;` inside quotes is not a comment; upper case counts")
        #expect(!source.declaresBits32, "an escaped backquote does not end a backquoted string")
        let quoted = try SourceFile(path: "q.asm", text: "msg: db '%include \"no.inc\"'\ndata: incbin \"blob.bin\", 4\n")
        #expect(quoted.includes == ["blob.bin"], "an include inside a string is text, incbin after a label is one")
    }

    @Test func dependenciesFollowNestedIncludesThroughTheSearchPath() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("%include \"b.inc\"\n", to: directory + "/lib/a.inc")
        try Fixture.write("incbin \"data.bin\"\n", to: directory + "/lib/b.inc")
        try Fixture.write("\u{0}\u{1}", to: directory + "/lib/data.bin")
        let text = "; asmrun: include lib\n%include \"a.inc\"\n%include 'missing.inc'\n; %include \"commented.inc\"\n"
        let source = try SourceFile(path: directory + "/main.asm", text: text)
        let found = source.dependencies()
        #expect(found.map(\.name) == ["a.inc", "missing.inc", "b.inc", "data.bin"])
        #expect(found[0].path == directory + "/lib/a.inc")
        #expect(found[0].digest == SHA256.hex(Array("%include \"b.inc\"\n".utf8)))
        #expect(found[1].path == nil && found[1].digest == nil)
        #expect(found[3].path == directory + "/lib/data.bin")
    }
}
