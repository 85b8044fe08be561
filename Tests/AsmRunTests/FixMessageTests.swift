import Foundation
import Glibc
import Processes
import Source
import Support
import Testing

/// The mistakes learners make most, each answered with the one-line fix (issue 32 item 4):
/// built for real with nasm and the linker, natively and as on an ARM host.
@Suite(.tags(.integration), .needsTools)
struct FixMessageTests {
    static let exit = "    mov eax, 60\n    xor edi, edi\n    syscall\n"
    static let hosts: [[String: String]] = [[:], ["ASMRUN_HOST_ARCH": "aarch64"]]

    /// Runs `asmrun ARGS` in a folder holding `files`; the last line of stderr and the status.
    static func run(_ files: [String: String], _ arguments: [String], environment: [String: String] = [:]) throws -> (
        stdout: String, stderr: String, status: Termination
    ) {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        for (name, text) in files { try Fixture.write(text, to: directory + "/" + name) }
        return try Fixture.asmrun(arguments + ["--no-cache"], in: directory, environment: environment)
    }

    @Test(arguments: hosts)
    func aStartWithoutGlobalAsksForIt(environment: [String: String]) throws {
        let result = try Self.run(["p.asm": "section .text\n_start:\n" + Self.exit], ["p.asm"], environment: environment)
        #expect(result.status == .exited(125))
        #expect(
            result.stderr
                == "asmrun: p.asm: `_start` is a label here but not global, so the linker cannot see it; add `global _start` above it\n")
    }

    @Test(arguments: [("start", "_start"), ("_Start", "_start"), ("main_", "main")])
    func aNearMissIsNamed(label: String, entry: String) throws {
        let source = "global \(label)\nsection .text\n\(label):\n" + Self.exit
        let result = try Self.run(["p.asm": source], ["p.asm"])
        #expect(result.status == .exited(125))
        #expect(
            result.stderr.contains("no entry point: it defines `\(label)`, not `\(entry)`; did you mean `\(entry)`?"), "\(result.stderr)")
    }

    @Test func noEntryPointSaysNeither() throws {
        let result = try Self.run(["f.asm": "global f\nsection .text\nf:\n    ret\n"], ["f.asm"])
        #expect(result.status == .exited(125))
        #expect(result.stderr.hasPrefix("asmrun: f.asm: no entry point: it defines neither `_start` nor `main`; "), "\(result.stderr)")
    }

    @Test func theProgramsNameFindsItsSource() throws {
        let source = "global _start\nsection .text\n_start:\n" + Self.exit
        let missing = try Self.run(["hello.asm": source], ["hello"])
        #expect(missing.stderr == "asmrun: hello: no such file; did you mean hello.asm? asmrun hello.asm\n")
        // The executable of an earlier hand-made build, beside its source.
        let built = try Self.run(["hello.asm": source, "hello": "\u{7f}ELF"], ["hello"])
        #expect(built.stderr.contains("hello: is not a source (an executable?); did you mean hello.asm?"), "\(built.stderr)")
    }

    @Test(arguments: hosts)
    func elfIsNasmsNameForElf32(environment: [String: String]) throws {
        let source = "global _start\nsection .text\n_start:\n    mov eax, 1\n    mov ebx, 3\n    int 0x80\n"
        let option = try Self.run(["p.asm": source], ["-f", "elf", "p.asm"], environment: environment)
        #expect(option.status == .exited(3), "\(option)")
        let directive = try Self.run(["p.asm": "; asmrun: format elf\n" + source], ["p.asm"], environment: environment)
        #expect(directive.status == .exited(3), "\(directive)")
    }

    @Test(arguments: [
        (".globl _start\n_start:\n    movl $60, %eax\n    xorl %edi, %edi\n    syscall\n", "this is GNU as (AT&T syntax"),
        (".model small\n.code\nmain proc\n    mov ah, 4ch\n    int 21h\nmain endp\nend main\n", "this is MASM/TASM syntax"),
        ("org 100h\n    mov ah, 9\n    int 21h\n    mov ah, 4ch\n    int 21h\nmsg db 'hi$'\n", "this is a 16-bit DOS program"),
        ("\u{FEFF}global _start\n_start:\n    mov eax, 60\n    syscall\n", "the file starts with a UTF-8 byte order mark"),
    ])
    func aForeignDialectIsNamed(source: String, sentence: String) throws {
        let result = try Self.run(["p.asm": source], ["p.asm"])
        #expect(result.status == .exited(125))
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("asmrun: p.asm: assembly failed; " + sentence), "\(result.stderr)")
    }

    /// Every NASM source of this repository (the sample corpus, the conformance corpus, the
    /// attacks) reads as NASM.
    @Test func noSourceHereLooksForeign() throws {
        var checked = 0
        for folder in ["asm", "Tests"] {
            let root = Fixture.packageRoot + "/" + folder
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let path as String in walker where path.hasSuffix(".asm") || path.hasSuffix(".nasm") {
                let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
                #expect(
                    ForeignDialect(Substring(text)) == nil,
                    "\(folder)/\(path) reads as \(String(describing: ForeignDialect(Substring(text))))")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func twoProgramsNamedTogetherAreNamed() throws {
        let source = "global _start\nsection .text\n_start:\n" + Self.exit
        let result = try Self.run(["a.asm": source, "b.asm": source], ["a.asm", "b.asm"])
        #expect(result.status == .exited(125))
        #expect(result.stderr.hasPrefix("asmrun: a.asm and b.asm each define `_start`: a program has one; "), "\(result.stderr)")
        let main = "int main(void) { return 0; }\n"
        let twoMains = try Self.run(
            ["f.asm": "global f\nsection .text\nf:\n    ret\n", "a.c": main, "b.c": main], ["f.asm", "a.c", "b.c"])
        #expect(
            twoMains.stderr.hasPrefix("asmrun: a.c and b.c each define `main`: a program has one; name the one to link"),
            "\(twoMains.stderr)")
    }

    @Test func printfFromStartWithoutExitIsWarned() throws {
        let source = """
            extern printf
            global _start
            section .data
            msg: db "hi", 10, 0
            section .text
            _start:
                mov rdi, msg
                xor eax, eax
                call printf
            """ + "\n" + Self.exit
        let result = try Self.run(["p.asm": source], ["p.asm"])
        // What hardware does: the buffer is lost with stdout a pipe.
        #expect(result.status == .exited(0) && result.stdout == "", "\(result)")
        #expect(result.stderr.contains("warning: it calls printf from `_start` and never exit or fflush"), "\(result.stderr)")
        let exiting = source.replacingOccurrences(of: "extern printf", with: "extern printf, exit")
            .replacingOccurrences(of: Self.exit, with: "    xor edi, edi\n    call exit\n")
        let flushed = try Self.run(["p.asm": exiting], ["p.asm"])
        #expect(flushed.status == .exited(0) && flushed.stdout == "hi\n", "\(flushed)")
        #expect(!flushed.stderr.contains("warning"), "a program that calls exit is not warned: \(flushed.stderr)")
    }

    /// A file of functions takes the C files of its folder and of a vendored folder below, never
    /// those of another program's folder below it; two drivers with `main` are named.
    @Test func aFileOfFunctionsTakesOnlyItsOwnCFiles() throws {
        let functions = "global answer\nsection .text\nanswer:\n    mov eax, 42\n    ret\n"
        let files = [
            "f.asm": functions,
            "driver.c": "int answer(void);\nint helper(int);\nint main(void) { return helper(answer()); }\n",
            "vendor/helper.c": "int helper(int x) { return x - 40; }\n",
            "other/prog.asm": functions,
            "other/main.c": "int answer(void);\nint main(void) { return answer(); }\n",
        ]
        let result = try Self.run(files, ["f.asm"])
        #expect(result.status == .exited(2), "\(result)")
        #expect(
            result.stderr.contains("driver.c, ./vendor/helper.c") || result.stderr.contains("driver.c, vendor/helper.c"), "\(result.stderr)"
        )
        #expect(!result.stderr.contains("other/main.c"), "\(result.stderr)")
        var twoDrivers = files
        twoDrivers["second.c"] = "int main(void) { return 7; }\n"
        let ambiguous = try Self.run(twoDrivers, ["f.asm"])
        #expect(ambiguous.status == .exited(125))
        let last = ambiguous.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            last.contains("driver.c and ./second.c each define `main`") || last.contains("driver.c and second.c each define `main`"),
            "\(ambiguous.stderr)")
    }
}
