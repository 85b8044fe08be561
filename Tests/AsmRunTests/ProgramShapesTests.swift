import Foundation
import Glibc
import Processes
import Support
import Testing

/// Programs as they exist in the wild, each with the one command a user would guess, natively,
/// under qemu and on a simulated ARM host: several sources, a C test driver, `_start` calling C,
/// an entry point chosen by a macro, 32-bit code without `bits 32`, warnings.
@Suite(.tags(.integration), .needsTools)
struct ProgramShapesTests {
    private let corpus = Fixture.corpus
    /// A runner, with the environment it runs in.
    struct Setup: Sendable, CustomTestStringConvertible {
        var runner: String
        var environment: [String: String] = [:]
        var testDescription: String { environment.isEmpty ? runner : "\(runner) on a simulated aarch64 host" }
    }

    /// Each runner, and qemu as an ARM host runs it (cross tools, no native runner).
    private static let setups: [Setup] =
        (Fixture.nativeHost ? [Setup(runner: "native")] : [])
        + [Setup(runner: "qemu"), Setup(runner: "auto", environment: ["ASMRUN_HOST_ARCH": "aarch64"])]

    private func run(_ arguments: [String], _ setup: Setup, in directory: String? = nil) throws
        -> (stdout: String, stderr: String, status: Termination)
    {
        try Fixture.asmrun(arguments + ["--runner", setup.runner, "--no-cache"], in: directory, environment: setup.environment)
    }

    @Test(arguments: setups) func twoAssemblySourcesThreeWays(setup: Setup) throws {
        for arguments in [
            [corpus + "/two_files/main.asm"], [corpus + "/two_files"],
            [corpus + "/two_files/main.asm", corpus + "/two_files/triple.asm"],
        ] {
            let result = try run(arguments, setup)
            #expect(result.status == .exited(42), "\(arguments): \(result.stderr)")
            #expect(result.stderr == "")
        }
    }

    @Test(arguments: setups) func asmFunctionWithACTestDriver(setup: Setup) throws {
        let folder = try run([corpus + "/leap"], setup)
        #expect(folder.stdout == "4 checks, 0 failed\n", "\(folder.stderr)")
        #expect(folder.status == .exited(0))
        let file = try run([corpus + "/leap/leap.asm"], setup)
        #expect(file.stdout == "4 checks, 0 failed\n")
        #expect(file.stderr.contains("leap.asm defines no entry point; building it with the C files of its folder"))
    }

    @Test(arguments: setups) func startCallingACHelper(setup: Setup) throws {
        let result = try run([corpus + "/c_helper/start.asm"], setup)
        #expect(result == ("square(7) from C\n", "", .exited(49)))
    }

    @Test(arguments: setups) func entryPointChosenByAMacro(setup: Setup) throws {
        let plain = try run([corpus + "/entry_macro.asm", "-v"], setup)
        #expect(plain.stdout == "entry chosen by a macro\n")
        #expect(plain.stderr.contains("ld") && !plain.stderr.contains("gcc -no-pie"))
        let libc = try run([corpus + "/entry_macro.asm", "-D", "USE_LIBC", "-v"], setup)
        #expect(libc.stdout == "entry chosen by a macro\n", "\(libc.stderr)")
        #expect(libc.stderr.contains("gcc -no-pie -Wl,-z,noexecstack") || libc.stderr.contains("/cc -no-pie -Wl,-z,noexecstack"))
    }

    @Test(arguments: setups) func thirtyTwoBitCodeWithoutBits32(setup: Setup) throws {
        let result = try run([corpus + "/int80.asm"], setup)
        #expect(result.stdout == "32-bit without bits 32\n")
        #expect(result.stderr.hasPrefix("asmrun: \(corpus)/int80.asm: built as 32-bit code (elf32)"))
        #expect(result.status == .exited(0))
    }

    @Test(arguments: setups) func libmThroughADirective(setup: Setup) throws {
        #expect(try run([corpus + "/sqrt.asm"], setup) == ("sqrt(2) = 1.414214\n", "", .exited(0)))
    }

    /// A program asmrun refuses to build (`program`, with `files` beside it), and the one line
    /// that says so and what to do.
    struct Refused: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var program: String
        var files: [String: String]
        var message: String
    }

    static let refused = [
        Refused(
            testDescription: "a file of functions alone", program: "leap.asm", files: ["leap.asm": "global leap_year\nleap_year: ret\n"],
            message:
                "asmrun: leap.asm: no entry point: it defines neither `_start` nor `main`; a file of functions needs a C driver: add a C file with `main` (asmrun leap.asm driver.c, or `; asmrun: with driver.c`), or define `_start`\n"
        ),
        Refused(
            testDescription: "asm sources of different formats", program: "a.asm",
            files: [
                "a.asm": "; asmrun: with b.asm\nglobal _start\n_start:\n    mov rdi, 1\n    ret\n", "b.asm": "bits 32\nglobal f\nf: ret\n",
            ],
            message:
                "asmrun: a.asm:4: is 64-bit code (this line names a 64-bit register or `syscall`) but b.asm is 32-bit code (it says `bits 32`); make them agree: a program is all 32-bit code (eax, `int 0x80`) or all 64-bit code (rax, `syscall`); `-f elf32|elf64` or `; asmrun: format elf32|elf64` in a.asm chooses for every source\n"
        ),
    ]

    @Test(arguments: refused) func aRefusedProgramIsOneLineSayingWhatToDo(_ refused: Refused) throws {
        let result = try Fixture.asmrun([refused.program], files: refused.files)
        #expect(result.status == .exited(125))
        #expect(result.stderr == refused.message)
    }

    @Test func nasmWarningsAreShownBeforeTheProgramRuns() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // `sycall` is a typo nasm takes for a label: its warning names the line.
        try Fixture.write(
            "global _start\n_start:\n    mov eax, 60\n    xor edi, edi\n    sycall\n    syscall\n", to: directory + "/typo.asm")
        let result = try Fixture.asmrun(["typo.asm"], in: directory)
        #expect(result.status == .exited(0))
        #expect(result.stderr.hasPrefix("typo.asm:5: warning: label alone on a line without a colon might be in error"))
        let cached = try Fixture.asmrun(["typo.asm", "--cache-dir", directory + "/cache"], in: directory)
        let again = try Fixture.asmrun(["typo.asm", "--cache-dir", directory + "/cache", "-v"], in: directory)
        #expect(cached.stderr.contains("typo.asm:5: warning:") && again.stderr.contains("typo.asm:5: warning:"), "replayed from the cache")
        #expect(again.stderr.contains("+ (cached "), "-v says where the executable came from")
    }

    @Test func int80InSixtyFourBitCodeIsWarnedAbout() throws {
        let result = try Fixture.asmrun(
            ["mixed.asm", "--runner", Fixture.nativeHost ? "native" : "qemu"],
            files: ["mixed.asm": "global _start\n_start:\n    mov rax, 1\n    xor ebx, ebx\n    int 0x80\n"])
        #expect(result.stderr.contains("asmrun: mixed.asm: warning: 64-bit code that calls `int 0x80`"))
    }

    @Test func codeNasmRejectsAs64BitIsBuiltAgainAs32Bit() throws {
        // The system calls hide in an include, as with SASM's io.inc: only nasm can tell.
        let result = try Fixture.asmrun(
            ["push.asm", "--runner", "qemu"],
            files: [
                "io.inc": "%macro quit 0\n    mov eax, 1\n    xor ebx, ebx\n    int 0x80\n%endmacro\n",
                "push.asm": "%include \"io.inc\"\nglobal _start\n_start:\n    push eax\n    pop eax\n    quit\n",
            ])
        #expect(result.status == .exited(0), "\(result.stderr)")
        #expect(result.stderr.contains("asmrun: push.asm: nasm rejects it as 64-bit code, so it was built as elf32"))
    }

    @Test func aSourceSavedDuringItsBuildIsNeverCachedUnderTheOldText() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // A nasm that sees the user save the file just as it starts.
        let nasm = try #require(Fixture.locator.find("nasm"))
        try Fixture.write(
            "#!/bin/sh\nfor last; do :; done\nprintf '; saved again\\n' >> \"$last\"\nexec \(nasm) \"$@\"\n", to: directory + "/bin/nasm")
        chmod(directory + "/bin/nasm", 0o755)
        try Fixture.write("global _start\n_start:\n    mov eax, 60\n    xor edi, edi\n    syscall\n", to: directory + "/p.asm")
        let path = directory + "/bin:" + (Fixture.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Fixture.asmrun(["p.asm", "--cache-dir", directory + "/cache"], in: directory, environment: ["PATH": path])
        #expect(result.status == .exited(125))
        #expect(result.stderr == "asmrun: p.asm: changed while it was being built; run asmrun again once it is saved\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/cache/objects").isEmpty, "nothing cached")
    }

    @Test func changingOneSourceRecompilesThatSourceAlone() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: corpus + "/two_files", toPath: directory + "/two")
        let cache = ["--cache-dir", directory + "/cache", "-v"]
        _ = try Fixture.asmrun([directory + "/two"] + cache)
        let main = directory + "/two/main.asm"
        try Fixture.write(
            try String(contentsOfFile: main, encoding: .utf8).replacingOccurrences(of: "mov     edi, 14", with: "mov     edi, 10"), to: main
        )
        let again = try Fixture.asmrun([directory + "/two"] + cache)
        #expect(again.status == .exited(30))
        #expect(again.stderr.contains("(cached ") && again.stderr.contains(") \(directory)/two/triple.asm"), "\(again.stderr)")
        #expect(again.stderr.contains("nasm -f elf64 -I \(directory)/two/ -MD "), "main.asm is assembled again")
        #expect(!again.stderr.contains("triple.o \(directory)/two/triple.asm"), "triple.asm is not")
    }

    @Test(arguments: (Fixture.nativeHost ? ["native"] : []) + ["qemu"])
    func thirtyTwoBitLibcProgramsLinkWithMultilib(runner: String) throws {
        let program =
            "bits 32\nextern printf\nsection .data\nfmt: db \"32-bit printf: %d\", 10, 0\nsection .text\nglobal main\nmain:\n"
            + "    push 42\n    push fmt\n    call printf\n    add esp, 8\n    xor eax, eax\n    ret\n"
        let result = try Fixture.asmrun(["p32.asm", "--runner", runner, "--no-cache"], files: ["p32.asm": program])
        #expect(result == ("32-bit printf: 42\n", "", .exited(0)), "make deps installs gcc-multilib")
    }
}
