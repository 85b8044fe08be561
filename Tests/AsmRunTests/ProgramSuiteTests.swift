import Compare
import Foundation
import Support
import Testing

/// `asmrun test` over programs of several files and programs that read and write files.
@Suite(.tags(.integration), .needsTools)
struct ProgramSuiteTests {
    private var runner: String { Fixture.nativeHost ? "native" : "qemu" }

    @Test func aFolderWithACDriverIsOneProgramWithOneExpectation() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/leap", toPath: suite + "/leap")
        try FileManager.default.removeItem(atPath: suite + "/leap/leap.expect")
        try Fixture.write("global _start\n_start:\n    mov eax, 60\n    mov edi, 3\n    syscall\n", to: suite + "/alone.asm")
        let recorded = Fixture.test([suite, "--update", "--runner", runner])
        #expect(recorded.status == 0, "\(recorded.output)\(recorded.errors)")
        let leap = try #require(try ExpectationFile.load(suite + "/leap/leap.expect"), "FOLDER/FOLDER.expect")
        #expect(leap.cases.first?.expected.stdout == TextLines(Array("4 checks, 0 failed\n".utf8)))
        #expect(!FileManager.default.fileExists(atPath: suite + "/leap/leap_test.expect"))
        let listed = Fixture.test([suite, "--list"]).output
        #expect(listed.contains("\(suite)/leap:default") && listed.contains("\(suite)/alone.asm:default"))
        // Break the function: the C driver's failure is the case's.
        let broken = try String(contentsOfFile: suite + "/leap/leap.asm", encoding: .utf8).replacingOccurrences(
            of: "mov     ecx, 400", with: "mov     ecx, 300")
        try Fixture.write(broken, to: suite + "/leap/leap.asm")
        let failing = Fixture.test([suite, "--runner", runner])
        #expect(failing.status == 1)
        // `__FILE__` is the path inside the program's folder, wherever the suite runs from.
        #expect(failing.output.contains("\n    +leap_test.c:9: FAILED: leap_year(2000) == 1\n"))
    }

    @Test func filesAroundACaseAreGivenRecordedAndCompared() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/copy_file.asm", toPath: suite + "/copy_file.asm")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/copy_file.files", toPath: suite + "/copy_file.files")
        try Fixture.write("[case given]\ninput input.txt:\n| abc\n", to: suite + "/copy_file.expect")
        let recorded = Fixture.test([suite, "--update", "--runner", runner])
        #expect(recorded.status == 0, "\(recorded.output)")
        let text = try String(contentsOfFile: suite + "/copy_file.expect", encoding: .utf8)
        #expect(text.contains("[case given]\ninput input.txt:\n| abc\nfile output.txt:\n| ABC\nstatus: exit 0\n"))
        // A wrong file fails with a diff naming it.
        try Fixture.write(text.replacingOccurrences(of: "| ABC", with: "| ABD"), to: suite + "/copy_file.expect")
        let failing = Fixture.test([suite, "--runner", runner])
        #expect(failing.status == 1)
        #expect(failing.output.contains("FAIL  \(suite)/copy_file.asm:given [\(runner)]: file output.txt differs"))
        #expect(failing.output.contains("-ABD\n    +ABC"))
        // Without an input, the folder's input.txt is the one.
        try Fixture.write("[case folder]\nfile output.txt:\n| HELLO, FILES\n| SECOND LINE\n", to: suite + "/copy_file.expect")
        #expect(Fixture.test([suite, "--runner", runner]).status == 0)
    }

    @Test func discoveryTakesAnyCaseSaysWhatItSkippedAndKeepsPartsOut() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        let exit7 = "global _start\n_start:\n    mov eax, 60\n    mov edi, 7\n    syscall\n"
        try Fixture.write(exit7, to: suite + "/Upper.ASM")
        try Fixture.write(exit7, to: suite + "/other.nasm")
        try Fixture.write(
            "; asmrun: with part.asm\nextern seven\nglobal _start\n_start:\n    call seven\n    mov edi, eax\n    mov eax, 60\n    syscall\n",
            to: suite + "/main.asm")
        try Fixture.write("global seven\nseven:\n    mov eax, 7\n    ret\n", to: suite + "/part.asm")
        try Fixture.write("nop\n", to: suite + "/gas.s")
        let result = Fixture.test([suite, "--update", "--runner", runner, "-v"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        for name in ["Upper", "other", "main"] {
            #expect(try String(contentsOfFile: suite + "/\(name).expect", encoding: .utf8).contains("status: exit 7"), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: suite + "/part.expect"), "a part is not a program")
        #expect(result.errors.contains("note: skipped \(suite)/part.asm: part of another program"))
        #expect(result.errors.contains("note: skipped \(suite)/gas.s: a .s file may be GNU as"))
    }

    @Test func warningsStayWithTheCase() throws {
        let suite = try Fixture.folder([
            "typo.asm": "global _start\n_start:\n    mov eax, 60\n    xor edi, edi\n    sycall\n    syscall\n",
            "typo.expect": "[case default]\nstatus: exit 1\n",
        ])
        defer { Files.removeTree(suite) }
        let result = Fixture.test([suite, "--runner", runner, "--json", suite + "/r.json"])
        #expect(result.status == 1)
        #expect(
            result.output.contains("\n\(suite)/typo.asm:5: warning: label alone on a line without a colon"),
            "unindented, for problem matchers")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        let entry = (json["results"] as! [[String: Any]])[0]
        #expect((entry["build_output"] as? String)?.contains("typo.asm:5: warning:") == true)
    }

    /// A program that makes its stdout pipe hold a megabyte and fills most of it just before it
    /// exits: its warden's report comes with 900 KB still in the pipe, all of it read.
    @Test func outputStillInThePipeWhenTheCaseEndsIsReadToTheLastByte() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        let source = """
            global _start
            section .bss
            buffer: resb 900000
            section .text
            _start:
                lea     rdi, [rel buffer]
                mov     ecx, 90000
            fill:
                mov     rax, 0x7878787878787878
                mov     [rdi], rax
                mov     word [rdi + 8], 0x0a78
                add     rdi, 10
                dec     ecx
                jnz     fill
                mov     eax, 72             ; fcntl(1, F_SETPIPE_SZ, 1 MiB)
                mov     edi, 1
                mov     esi, 1031
                mov     edx, 1048576
                syscall
                mov     edi, 3
                cmp     rax, 900000
                jl      done
                mov     eax, 1
                mov     edi, 1
                lea     rsi, [rel buffer]
                mov     edx, 900000
                syscall
                xor     edi, edi
                cmp     rax, 900000
                je      done
                mov     edi, 4
            done:
                mov     eax, 60
                syscall
            """
        try Fixture.write(source + "\n", to: suite + "/fill.asm")
        // Eight cases, one at a time: one warden, each report racing the reads of the pipe.
        let lines = String(repeating: "| xxxxxxxxx\n", count: 90000)
        let cases = (1...8).map { "[case run\($0)]\nstdout:\n" + lines + "status: exit 0\n" }
        try Fixture.write(cases.joined(separator: "\n"), to: suite + "/fill.expect")
        let run = Fixture.test([suite, "--runner", runner, "-j1"])
        #expect(run.status == 0, "\(run.output.suffix(2000))\(run.errors)")
        #expect(run.output.contains("8 passed, 0 failed"))
    }
}
