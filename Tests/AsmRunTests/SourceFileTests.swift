import Foundation
import Glibc
import Support
import Testing

@testable import Source

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

    @Test func aLoadedSourceKeepsTheStatusItWasReadWith() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write("global _start\n_start: ret\n", to: base + "/p.asm")
        let loaded = try SourceFile.load(base + "/p.asm")
        let snapshot = try #require(loaded.snapshot)
        #expect(!snapshot.settled, "written just now: its status proves nothing yet")
        #expect(try SourceFile(path: "t.asm", text: "ret\n").snapshot == nil)
    }

    @Test func int80WithoutSixtyFourBitRegistersIs32BitCode() throws {
        let remarks = { (source: SourceFile) in
            Program(path: source.path, name: source.stem, isFolder: false, assembly: [source]).formatRemarks
        }
        let tutorial = try SourceFile(path: "t.asm", text: "_start:\n  mov eax, 4\n  mov ecx, msg\n  INT 80h\n")
        #expect(tutorial.format == .elf32)
        #expect(remarks(tutorial).first?.hasPrefix("t.asm: built as 32-bit code (elf32)") == true)
        let mixed = try SourceFile(path: "m.asm", text: "_start:\n  mov rax, [rbp-8]\n  int 0x80\n")
        #expect(mixed.format == .elf64)
        #expect(remarks(mixed).first?.hasPrefix("m.asm: warning: 64-bit code that calls `int 0x80`") == true)
        let r8 = try SourceFile(path: "r.asm", text: "  mov r8d, 1\n  int 0x80\n")
        #expect(r8.format == .elf64, "r8d is a 64-bit-only register")
        let modern = try SourceFile(path: "s.asm", text: "  mov eax, 60\n  syscall\n")
        #expect(modern.format == .elf64 && remarks(modern).isEmpty)
        let said = try SourceFile(path: "b.asm", text: "bits 32\n  int 0x80\n")
        #expect(said.format == .elf32 && remarks(said).isEmpty, "nothing to say when the source says it")
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
            ; asmrun: with util.asm "drivers/my test.c"
            ; asmrun: link-flags -lm -static
            ; asmrun: c-flags -O2
            ; asmrun: argv0 ./x.out
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
        #expect(source.settings.sources == ["dir/util.asm", "dir/drivers/my test.c"], "relative to the source's folder")
        #expect(source.settings.linkFlags == ["-lm", "-static"])
        #expect(source.settings.cFlags == ["-O2"])
        #expect(source.settings.argv0 == "./x.out")
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

    /// nasm 2.16 joins a line ending in `\` (right before LF, CRLF or a lone CR) to the next
    /// before it reads it, and ends a line at a lone CR, ^Z or NUL too: `inc\` then `bin "x"`
    /// is `incbin "x"`. The scan reads the same lines, in one chunk or byte by byte, each
    /// numbered by its first physical line, so the checks of what a source includes see them.
    @Test(arguments: [
        ("blob: inc\\\nbin \"a.txt\"\n", 1), ("%\\\ninclude \"a.inc\"\n", 1), ("nop\n%incl\\\r\nude \"a.inc\"\r\n", 2),
        ("db 1\r%include \"a.inc\"\n", 2), ("db 1\u{1a}%include \"a.inc\"\n", 2), ("x\\\n\\\ny\n%include \"a.inc\"\n", 4),
        ("blob: inc\\\rbin \"a.txt\"\n", 1), ("db 1\r\n\r\n%include \"a.inc\"", 3),
    ])
    func continuedLinesAndLineEndsAreReadAsNasmReadsThem(_ attack: (text: String, line: Int)) throws {
        let whole = SourceScan(Array(attack.text.utf8))
        #expect(whole.includes.count == 1 && whole.includeLines == [attack.line], "\(whole.includes) \(whole.includeLines)")
        var bytewise = SourceScan()
        for byte in Array("\u{feff}".utf8) + Array(attack.text.utf8) { [byte].withUnsafeBytes { bytewise.feed($0) } }
        bytewise.finish()
        #expect(bytewise.includes == whole.includes && bytewise.includeLines == whole.includeLines)
    }

    /// What nasm does not join stays apart: a blank after the `\`, a `\` before ^Z; and a
    /// comment ending in `\` takes the next line with it, as in nasm.
    @Test func whatNasmDoesNotJoinStaysApart() throws {
        for text in ["x: inc\\ \nbin \"a.txt\"\n", "x: inc\\\u{1a}bin \"a.txt\"\n", "; note \\\n%include \"a.inc\"\n"] {
            #expect(SourceScan(Array(text.utf8)).includes.isEmpty, "\(text)")
        }
        let after = SourceScan(Array("; a \\\nb\nsyscall\n".utf8))
        #expect(after.sixtyFourBitLine == 3, "lines after a continued one keep their numbers")
    }

    @Test func dependenciesFollowNestedIncludesThroughTheSearchPath() throws {
        let directory = try Fixture.folder([
            "lib/a.inc": "%include \"b.inc\"\n",
            "lib/b.inc": "incbin \"data.bin\"\n",
            "lib/data.bin": "\u{0}\u{1}",
        ])
        defer { Files.removeTree(directory) }
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

@Suite struct SourceScanStreamingTests {
    /// The same text fed in chunks of every size finds the same things as in one piece.
    @Test func chunkBoundariesChangeNothing() {
        let text = Array(
            "\u{FEFF}; asmrun: timeout 5\r\nGLOBAL _start, main\r\n%include \"a.inc\"\r\nmsg: db 'x;y', `a\\`;b` ; int 0x80\r\n  incbin \"b.bin\"\r\n  mov r9d, 1\r\n  INT 80h\r\n  ADD  ESP,8\r\n  syscall"
                .utf8)
        let whole = SourceScan(text)
        for size in 1...text.count {
            var chunked = SourceScan()
            for start in stride(from: 0, to: text.count, by: size) {
                text[start..<min(start + size, text.count)].withUnsafeBytes { chunked.feed($0) }
            }
            chunked.finish()
            #expect(chunked.directives.map(\.text) == ["timeout 5"] && chunked.directives.map(\.line) == [1], "chunks of \(size)")
            #expect(chunked.includes == ["a.inc", "b.bin"], "chunks of \(size)")
            #expect(chunked.definesStart && chunked.definesMain && chunked.usesInt80 && chunked.usesSyscall && chunked.names64BitRegister)
            #expect(chunked.includes == whole.includes && chunked.usesInt80 == whole.usesInt80)
            #expect(chunked.stackLine == 8 && chunked.sixtyFourBitLine == 6, "chunks of \(size)")
        }
    }

    /// Paths are standardized without the file system: `.`, `..` and repeated slashes go, a
    /// relative path is taken from the working directory, and names that only start with a dot stay.
    @Test func programPathsAreStandardized() {
        let cases = [
            "/a/b/../c": "/a/c", "/a/./b//c/": "/a/b/c", "/../x": "/x", "/": "/", "/a/..": "/", "//": "/",
            "/a/..b/.c/...": "/a/..b/.c/...", "/a/b/c/../../d": "/a/d", "/a/b.asm": "/a/b.asm", "/a/.": "/a",
            "/a/b/": "/a/b", "/a/./b": "/a/b", "/.": "/", "/..": "/", "/a//b": "/a/b",
        ]
        for (path, standard) in cases { #expect(ProgramFolder.standardize(path) == standard, "\(path)") }
        let here = ProgramFolder.standardize(FileManager.default.currentDirectoryPath)
        #expect(ProgramFolder.standardize("x/./y/../z.asm") == (here == "/" ? "" : here) + "/x/z.asm")
    }
}
