import Foundation
import Testing

@testable import Support

/// Every way a build's output can change reaches the cache: a file nasm reads through a macro,
/// a variable read with `%!NAME` (in the source or in a file only nasm names), a file `incbin`
/// reads under another name, the clock, a header only the compiler's `-MD` list names, and
/// nasm's own `NASMENV`. Each is changed between two runs sharing a cache, and the second run
/// must print the new text (and must not say it came from the cache).
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and cc"))
struct CacheInputsTests {
    /// Prints the bytes between `msg` and `end` (which the including file defines).
    static func printer(_ data: String) -> String {
        """
        global _start
        section .text
        _start:
            mov eax, 1
            mov edi, 1
            mov rsi, msg
            mov edx, end - msg
            syscall
            mov eax, 60
            xor edi, edi
            syscall
        section .data
        \(data)

        """
    }

    /// Runs `main.asm` in `directory` with a cache there, twice around `change`, and returns
    /// the two runs' stdout and the second run's stderr (`-v`: what was built or taken from the cache).
    static func twice(
        _ directory: String, environment: [String: String] = [:], changed: [String: String] = [:], change: () throws -> Void
    ) throws -> (first: String, second: String, trace: String) {
        let arguments = ["main.asm", "-v", "--cache-dir", directory + "/cache"]
        let first = try Fixture.asmrun(arguments, in: directory, environment: environment)
        #expect(first.status == .exited(0), "\(first.stderr)")
        let warm = try Fixture.asmrun(arguments, in: directory, environment: environment)
        #expect(warm.stdout == first.stdout)
        #expect(warm.stderr.contains("(cached "), "unchanged, the second run is a hit: \(warm.stderr)")
        try change()
        let second = try Fixture.asmrun(arguments, in: directory, environment: environment.merging(changed) { $1 })
        #expect(second.status == .exited(0), "\(second.stderr)")
        return (first.stdout, second.stdout, second.stderr)
    }

    static func folder(_ files: [String: String]) throws -> String {
        let directory = try Fixture.temporaryDirectory()
        for (name, text) in files { try Fixture.write(text, to: directory + "/" + name) }
        return directory
    }

    @Test func aFileIncludedThroughAMacroIsAnInput() throws {
        let directory = try Self.folder([
            "main.asm": Self.printer("%define PART \"part.inc\"\n%include PART"), "part.inc": "msg: db \"one\", 10\nend:\n",
        ])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory) { try Fixture.write("msg: db \"two\", 10\nend:\n", to: directory + "/part.inc") }
        #expect(runs.first == "one\n")
        #expect(runs.second == "two\n", "\(runs.trace)")
    }

    @Test func aVariableReadWithPercentBangIsAnInput() throws {
        let directory = try Self.folder(["main.asm": Self.printer("%defstr WORD %!GREETING\nmsg: db WORD, 10\nend:")])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory, environment: ["GREETING": "hello"], changed: ["GREETING": "howdy"]) {}
        #expect(runs.first == "hello\n")
        #expect(runs.second == "howdy\n", "\(runs.trace)")
    }

    /// The variable is read in a file only nasm's listing names: the entry's record holds it.
    @Test func aVariableReadInAMacroIncludedFileIsAnInput() throws {
        let directory = try Self.folder([
            "main.asm": Self.printer("%define PART \"part.inc\"\n%include PART"),
            "part.inc": "%defstr WORD %!'GREETING'\nmsg: db WORD, 10\nend:\n",
        ])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory, environment: ["GREETING": "hello"], changed: ["GREETING": "howdy"]) {}
        #expect(runs.first == "hello\n")
        #expect(runs.second == "howdy\n", "\(runs.trace)")
    }

    /// `incbin` under another name: asmrun's scan sees no `incbin`, nasm's `-MD` list does.
    @Test func aFileIncbinReadsUnderAnotherNameIsAnInput() throws {
        let directory = try Self.folder([
            "main.asm": Self.printer("%define BLOB incbin\nmsg: BLOB \"blob.txt\"\nend:"), "blob.txt": "one\n",
        ])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory) { try Fixture.write("three\n", to: directory + "/blob.txt") }
        #expect(runs.first == "one\n")
        #expect(runs.second == "three\n", "\(runs.trace)")
    }

    @Test func nasmsOwnOptionsFromTheEnvironmentAreAnInput() throws {
        let directory = try Self.folder(["main.asm": Self.printer("msg: db WORD, 10\nend:")])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory, environment: ["NASMENV": "-DWORD='one'"], changed: ["NASMENV": "-DWORD='two'"]) {}
        #expect(runs.first == "one\n")
        #expect(runs.second == "two\n", "\(runs.trace)")
    }

    /// A program that reads the clock is never taken from the cache.
    @Test func aProgramReadingTheClockIsNeverCached() throws {
        let directory = try Self.folder(["main.asm": Self.printer("msg: db __?TIME?__, 10\nend:")])
        defer { Files.removeTree(directory) }
        let arguments = ["main.asm", "-v", "--cache-dir", directory + "/cache"]
        for _ in 0..<2 {
            let run = try Fixture.asmrun(arguments, in: directory)
            #expect(run.status == .exited(0))
            #expect(!run.stderr.contains("(cached "), "\(run.stderr)")
            #expect(run.stderr.contains("nasm -f elf64"), "assembled every time: \(run.stderr)")
        }
    }

    /// A header in a system folder (`-isystem`), which `-MMD` would leave out of the list.
    @Test func aSystemHeaderIsAnInput() throws {
        let main = """
            ; asmrun: with driver.c
            ; asmrun: c-flags -isystem sys
            global value
            section .text
            value:
                mov eax, 7
                ret

            """
        let driver =
            "#include <word.h>\n#include <stdio.h>\nint value(void);\nint main(void) { printf(\"%s %d\\n\", WORD, value()); return 0; }\n"
        let directory = try Self.folder(["main.asm": main, "driver.c": driver, "sys/word.h": "#define WORD \"one\"\n"])
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory) { try Fixture.write("#define WORD \"two\"\n", to: directory + "/sys/word.h") }
        #expect(runs.first == "one 7\n")
        #expect(runs.second == "two 7\n", "\(runs.trace)")
    }

    /// A library the linker reads (`-lgreet`, found through `-L`): its listing is the record.
    @Test func aLibraryTheLinkerReadsIsAnInput() throws {
        let main = """
            global _start
            extern msg, len
            section .text
            _start:
                mov eax, 1
                mov edi, 1
                mov rsi, msg
                mov edx, len
                syscall
                mov eax, 60
                xor edi, edi
                syscall

            """
        let directory = try Self.folder(["main.asm": main])
        defer { Files.removeTree(directory) }
        func library(_ word: String) throws {
            try Fixture.write("global msg, len\nsection .data\nmsg: db \"\(word)\", 10\nlen equ $ - msg\n", to: directory + "/greet.asm")
            for command in [["nasm", "-f", "elf64", "greet.asm", "-o", "greet.o"], ["ar", "rcs", "libgreet.a.new", "greet.o"]] {
                #expect(try FidelityTests.run(command[0], Array(command.dropFirst()), in: directory).status == .exited(0))
            }
            #expect(rename(directory + "/libgreet.a.new", directory + "/libgreet.a") == 0)
        }
        try library("one")
        let arguments = ["main.asm", "-v", "--cache-dir", directory + "/cache", "--link-flags", "-L. -lgreet"]
        let first = try Fixture.asmrun(arguments, in: directory)
        #expect(first.stdout == "one\n", "\(first.stderr)")
        #expect(try Fixture.asmrun(arguments, in: directory).stderr.contains("(cached "), "unchanged, a hit")
        try library("two")
        let second = try Fixture.asmrun(arguments, in: directory)
        #expect(second.stdout == "two\n", "\(second.stderr)")
    }
}
