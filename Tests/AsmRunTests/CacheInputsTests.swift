import Foundation
import Support
import Testing

/// Every way a build's output can change reaches the cache: a file nasm reads through a macro,
/// a variable read with `%!NAME` (in the source or in a file only nasm names), a file `incbin`
/// reads under another name, the clock, a header only the compiler's `-MD` list names, and
/// nasm's own `NASMENV`. Each is changed between two runs sharing a cache, and the second run
/// must print the new text (and must not say it came from the cache).
@Suite(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and cc"))
struct CacheInputsTests {
    /// Prints the bytes between `msg` and `end` (which the including file defines).
    static func printer(_ data: String) -> String {
        Fixture.writer("msg", count: "end - msg") + "section .data\n" + data + "\n"
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

    /// A way an input reaches nasm or the compiler: the files of a program, and what changes
    /// between its two runs (a file written anew, variables given new values).
    struct Input: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var files: [String: String]
        var rewritten: (name: String, text: String)? = nil
        var environment: [String: String] = [:]
        var changed: [String: String] = [:]
        var first: String
        var second: String
    }

    static let includeThroughMacro = Self.printer("%define PART \"part.inc\"\n%include PART")

    /// A C driver's assembly half, for the system header's case.
    static let systemHeader = """
        ; asmrun: with driver.c
        ; asmrun: c-flags -isystem sys
        global value
        section .text
        value:
            mov eax, 7
            ret

        """

    /// `files` print the variable `GREETING`, which is `hello`, then `howdy`.
    static func greeting(_ testDescription: String, _ files: [String: String]) -> Input {
        Input(
            testDescription: testDescription, files: files, environment: ["GREETING": "hello"], changed: ["GREETING": "howdy"],
            first: "hello\n", second: "howdy\n")
    }

    static let inputs = [
        Input(
            testDescription: "a file included through a macro",
            files: ["main.asm": includeThroughMacro, "part.inc": "msg: db \"one\", 10\nend:\n"],
            rewritten: ("part.inc", "msg: db \"two\", 10\nend:\n"), first: "one\n", second: "two\n"),
        greeting("a variable read with %!", ["main.asm": Self.printer("%defstr WORD %!GREETING\nmsg: db WORD, 10\nend:")]),
        // The entry's record holds a variable read in a file only nasm's listing names.
        greeting(
            "a variable read in a file included through a macro",
            ["main.asm": includeThroughMacro, "part.inc": "%defstr WORD %!'GREETING'\nmsg: db WORD, 10\nend:\n"]),
        // asmrun's scan sees no `incbin`, nasm's `-MD` list does.
        Input(
            testDescription: "a file incbin reads under another name",
            files: ["main.asm": Self.printer("%define BLOB incbin\nmsg: BLOB \"blob.txt\"\nend:"), "blob.txt": "one\n"],
            rewritten: ("blob.txt", "three\n"), first: "one\n", second: "three\n"),
        Input(
            testDescription: "nasm's own options from the environment",
            files: ["main.asm": Self.printer("msg: db WORD, 10\nend:")],
            environment: ["NASMENV": "-DWORD='one'"], changed: ["NASMENV": "-DWORD='two'"], first: "one\n", second: "two\n"),
        // `-MMD` would leave a header in a system folder (`-isystem`) out of the list.
        Input(
            testDescription: "a system header",
            files: [
                "main.asm": systemHeader, "sys/word.h": "#define WORD \"one\"\n",
                "driver.c":
                    "#include <word.h>\n#include <stdio.h>\nint value(void);\nint main(void) { printf(\"%s %d\\n\", WORD, value()); return 0; }\n",
            ],
            rewritten: ("sys/word.h", "#define WORD \"two\"\n"), first: "one 7\n", second: "two 7\n"),
    ]

    @Test(arguments: inputs) func anInputThatChangesBetweenTwoRunsChangesTheSecond(_ input: Input) throws {
        let directory = try Fixture.folder(input.files)
        defer { Files.removeTree(directory) }
        let runs = try Self.twice(directory, environment: input.environment, changed: input.changed) {
            if let rewritten = input.rewritten { try Fixture.write(rewritten.text, to: directory + "/" + rewritten.name) }
        }
        #expect(runs.first == input.first)
        #expect(runs.second == input.second, "\(runs.trace)")
    }

    /// A program that reads the clock is never taken from the cache.
    @Test func aProgramReadingTheClockIsNeverCached() throws {
        let directory = try Fixture.folder(["main.asm": Self.printer("msg: db __?TIME?__, 10\nend:")])
        defer { Files.removeTree(directory) }
        let arguments = ["main.asm", "-v", "--cache-dir", directory + "/cache"]
        for _ in 0..<2 {
            let run = try Fixture.asmrun(arguments, in: directory)
            #expect(run.status == .exited(0))
            #expect(!run.stderr.contains("(cached "), "\(run.stderr)")
            #expect(run.stderr.contains("nasm -f elf64"), "assembled every time: \(run.stderr)")
        }
    }

    /// A library the linker reads (`-lgreet`, found through `-L`): its listing is the record.
    @Test func aLibraryTheLinkerReadsIsAnInput() throws {
        let directory = try Fixture.folder(["main.asm": "extern msg, len\n" + Fixture.writer("msg", count: "len")])
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
