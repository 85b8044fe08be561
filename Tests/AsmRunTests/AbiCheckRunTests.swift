import Foundation
import Glibc
import Support
import Testing

/// How the ABI checks run (Documentation/crash-reports.md#abi-checks): objdump reads a build's
/// sites once, however many cases and retries are checked; a missing gdb or objdump is one note
/// a run; a source whose path holds a space is checked; `--checks always` fails only a passing case.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct AbiCheckRunTests {
    typealias Way = CrashReportTests.Way

    /// Two cases that pass and one that fails, of `asm/checks/aligned_call.asm` copied to `directory`.
    static func threeCases(in directory: String, failing: Bool = true) throws -> String {
        let target = directory + "/aligned_call.asm"
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/checks/aligned_call.asm", toPath: target)
        let wrong = failing ? "50" : "49"
        try Fixture.write(
            "[case a]\nstdout:\n| 7 squared is 49\n\n[case b]\nstdout:\n| 7 squared is 49\n\n[case c]\nstdout:\n| 7 squared is \(wrong)\n",
            to: directory + "/aligned_call.expect")
        return target
    }

    /// Five checked runs (two passing cases, a failing one and its two retries) run objdump once,
    /// and a second program in the same run (`balanced_ret.asm` broken, with a finding of its
    /// own) once more: counted by an objdump first on PATH that logs each run. Each program gets
    /// its own sites: its finding, and none for the other.
    @Test(arguments: CrashReportTests.ways)
    func objdumpReadsABuildOnce(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let target = try Self.threeCases(in: directory)
        let second = try AbiCheckTests.broken(AbiCheckTests.samples[2], in: directory)
        let log = directory + "/objdump.log"
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: false)
        let real = try #require(
            Fixture.locator.find(way == .arm ? "x86_64-linux-gnu-objdump" : "objdump") ?? Fixture.locator.find("objdump"))
        for name in ["objdump", "x86_64-linux-gnu-objdump"] {
            try Fixture.write("#!/bin/sh\necho \"$*\" >> '\(log)'\nexec '\(real)' \"$@\"\n", to: directory + "/bin/" + name)
            chmod(directory + "/bin/" + name, 0o755)
        }
        let path = directory + "/bin:" + (Fixture.environment["PATH"] ?? "/usr/bin:/bin")
        let run = Fixture.test(
            [target, second, "--checks", "always", "--retries", "2", "-j", "3"] + way.arguments,
            environment: way.environment.merging(["PATH": path]) { $1 })
        #expect(run.status == 1 && run.output.contains("attempt 3"), "\(run.output)")
        let finding = "\(second):17: ABI check: rsp at `ret` is 8 bytes below its value when `half` was entered"
        let findings = run.output.split(separator: "\n").filter { $0.contains(": ABI check: ") }
        #expect(!findings.isEmpty && findings.allSatisfy { $0.hasPrefix("    " + finding) }, "\(run.output)")
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(runs.count == 2 && Set(runs).count == 2, "\(runs)")
    }

    /// Without gdb, or without objdump, a run whose cases fail says so in one note, not one a case
    /// (natively and as on ARM, where the packages differ); a run that passes says nothing.
    @Test(arguments: ["gdb", "objdump"], [Way.native, Way.arm])
    func aMissingToolIsOneNote(tool: String, way: Way) throws {
        let names: Set = tool == "gdb" ? ["gdb", "gdb-multiarch"] : ["objdump", "x86_64-linux-gnu-objdump"]
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let bin = try NoDebuggerTests.path(without: names)
        defer { Files.removeTree(bin) }
        let package =
            tool == "gdb" ? NoDebuggerTests.package : way == .arm ? "binutils-x86-64-linux-gnu" : "binutils"
        let note = "note: no ABI checks: \(tool) not found; install it with `apt-get install \(package)`"
        let environment = way.environment.merging(["PATH": bin]) { $1 }
        // The links of `bin` are out of sight of the build view and the case namespaces.
        let arguments = ["--no-isolation"] + way.arguments
        let target = try Self.threeCases(in: directory)
        for checks in [[], ["--checks", "always"]] {
            let run = Fixture.test([target, "--no-cache"] + checks + arguments, environment: environment)
            #expect(run.status == 1)
            #expect(run.errors.components(separatedBy: note).count == 2, "\(run.errors)\(run.output)")
        }
        let unchecked = Fixture.test([target, "--no-checks"] + arguments, environment: environment)
        #expect(unchecked.status == 1 && !unchecked.errors.contains("ABI checks"), "\(unchecked.errors)")
        try FileManager.default.createDirectory(atPath: directory + "/passing", withIntermediateDirectories: false)
        let passing = try Self.threeCases(in: directory + "/passing", failing: false)
        let quiet = Fixture.test([passing] + arguments, environment: environment)
        #expect(quiet.status == 0 && !quiet.errors.contains("ABI checks"), "\(quiet.errors)\(quiet.output)")
    }

    /// `asmrun FILE.asm` without objdump: the crash report, then the note naming the package.
    @Test(arguments: [Way.native, Way.arm])
    func aCrashWithoutObjdumpSaysWhatToInstall(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let bin = try NoDebuggerTests.path(without: ["objdump", "x86_64-linux-gnu-objdump"])
        defer { Files.removeTree(bin) }
        let target = try AbiCheckTests.broken(AbiCheckTests.samples[2], in: directory)  // balanced_ret.asm
        let run = try Fixture.asmrun([target, "--no-cache"] + way.arguments, environment: way.environment.merging(["PATH": bin]) { $1 })
        let package = way == .arm ? "binutils-x86-64-linux-gnu" : "binutils"
        #expect(run.status == .exited(139) && run.stderr.hasPrefix("asmrun: \(target):6: SIGSEGV"), "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix(
                "asmrun: note: no ABI checks: objdump not found; install it with `apt-get install \(package)`"
                    + " (`make deps` in asmrun's source tree installs it too)\n"), "\(run.stderr)")
    }

    /// objdump names a line `/home/ann/my labs/f.asm:16`: a program in a folder whose name holds a
    /// space gets its finding.
    @Test(arguments: CrashReportTests.ways)
    func aFolderNameWithASpaceIsChecked(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let folder = directory + "/my labs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let target = try AbiCheckTests.broken(AbiCheckTests.samples[1], in: folder)  // aligned_call.asm
        let run = Fixture.test([target, "--checks", "always"] + way.arguments, environment: way.environment)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("    \(target):16: ABI check: rsp is not a multiple of 16 at `call printf`"), "\(run.output)")
    }

    /// `--checks always` checks a case that timed out and keeps its verdict: only a passing case
    /// fails for a finding. The program waits (`pause`) past its time limit, which leaves gdb's
    /// run of it time to start even on a loaded machine.
    @Test(arguments: CrashReportTests.ways)
    func aTimeoutKeepsItsVerdict(way: Way) throws {
        let directory = try Fixture.folder([
            "waits.asm": """
            extern printf
            section .data
            fmt:    db "hi", 10, 0
            section .text
            global main
            main:
                    lea     rdi, [rel fmt]
                    xor     eax, eax
                    call    printf
            .wait:  mov     eax, 34
                    syscall
                    jmp     .wait
            """,
            "waits.expect": "[case default]\nstdout:\n| hi\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let report = directory + "/r.json"
        let run = Fixture.test(
            [directory + "/waits.asm", "--checks", "always", "--timeout", "3", "--json", report] + way.arguments,
            environment: way.environment)
        #expect(run.status == 1, "\(run.output)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let result = try #require((json?["results"] as? [[String: Any]])?.first)
        #expect(result["status"] as? String == "timeout", "\(result)")
        #expect((result["message"] as? String)?.contains("ABI checks") == false, "\(result)")
        let checks = result["abi_checks"] as? [String] ?? []
        #expect(checks.first?.contains("waits.asm:9: ABI check: rsp is not a multiple of 16") == true, "\(result)")
    }

    /// A prompt without a newline before a stop: natively the program's output and gdb's share a
    /// pipe, so each stop starts a line of its own (else `Number: @@abi-…` would be lost, and the
    /// finding with it).
    @Test(arguments: CrashReportTests.ways)
    func aPromptWithoutANewlineLosesNoStop(way: Way) throws {
        let directory = try Fixture.folder([
            "prompt.asm": """
            section .data
            prompt: db "Number: "
            section .text
            global main
            main:
                    mov     eax, 1
                    mov     edi, 1
                    lea     rsi, [rel prompt]
                    mov     edx, 8
                    syscall
                    mov     ebx, 5
                    xor     eax, eax
                    ret
            """,
            "prompt.expect": "[case default]\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let run = Fixture.test([directory + "/prompt.asm", "--checks", "always"] + way.arguments, environment: way.environment)
        #expect(run.status == 1, "\(run.output)")
        #expect(
            run.output.contains("    \(directory)/prompt.asm:13: ABI check: `main` (called from C) returns with rbx changed"),
            "\(run.output)")
    }
}
