import Foundation
import Glibc
import Support
import Testing

/// Issue 30, item 6: the command line's limits are ceilings a source cannot raise. A source's
/// `; asmrun: timeout 604800` beat `--timeout 2`, and `limit output 1024G` was accepted.
@Suite(.tags(.integration), .needsTools)
struct CeilingAttackTests {
    static let spin = "global _start\n_start:\n    jmp _start\n"
    /// Writes 4096 bytes to stdout and exits 0.
    static let talker = """
        global _start
        section .bss
        buffer: resb 4096
        section .text
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel buffer]
            mov edx, 4096
            syscall
            mov eax, 60
            xor edi, edi
            syscall

        """

    private func suite(_ files: [String: String]) throws -> String {
        let directory = try Fixture.temporaryDirectory()
        for (name, text) in files { try Fixture.write(text, to: directory + "/" + name) }
        return directory
    }

    @Test func aSourcesTimeoutCannotRaiseTheCommandLines() throws {
        let directory = try suite(["spin.asm": "; asmrun: timeout 604800\n" + Self.spin, "spin.expect": "[case default]\nstatus: exit 0\n"])
        defer { Files.removeTree(directory) }
        // The binary, under the fixture's own 120 s limit: a week of spinning ends there.
        let result = try Fixture.asmrun(["test", directory, "--runner", Fixture.runner, "--timeout", "0.5", "--no-cache"])
        #expect(result.status == .exited(1), "the source's week did not apply: \(result.status)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("spin.asm") && $0.contains("asks for more") }
        #expect(notes.count == 1 && notes.first?.contains("timeout 604800 (runs with --timeout 0.5)") == true, "\(result.stderr)")
        #expect(
            result.stdout.contains("TIME  \(directory)/spin.asm:default [\(Fixture.runner)]: timed out after 0.5 s"), "\(result.stdout)")
    }

    @Test func aCasesTimeoutCannotRaiseTheCommandLines() throws {
        let directory = try suite(["spin.asm": Self.spin, "spin.expect": "[case default]\ntimeout: 3\nstatus: exit 0\n"])
        defer { Files.removeTree(directory) }
        let result = Fixture.test([directory, "--runner", Fixture.runner, "--timeout", "0.5", "--no-cache"])
        #expect(result.output.contains("timed out after 0.5 s"), "\(result.output)")
        #expect(result.errors.contains("timeout 3 (runs with --timeout 0.5)"), "\(result.errors)")
    }

    @Test func aSourcesOutputLimitCannotRaiseTheCommandLines() throws {
        let directory = try suite([
            "talk.asm": "; asmrun: limit output 8M\n" + Self.talker, "talk.expect": "[case default]\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let result = Fixture.test([directory, "--runner", Fixture.runner, "--output-limit", "1K", "--no-cache"])
        #expect(result.status == 1)
        #expect(result.output.contains("output limit exceeded: more than 1024 bytes"), "\(result.output)")
        #expect(result.errors.contains("limit output 8388608 (runs with 1024)"), "\(result.errors)")
        // Lowering is a program's right: under the command line's 1M, its 1K holds.
        try Fixture.write("; asmrun: limit output 1K\n" + Self.talker, to: directory + "/talk.asm")
        let lowered = Fixture.test([directory, "--runner", Fixture.runner, "--no-cache"])
        #expect(lowered.output.contains("output limit exceeded: more than 1024 bytes"), "\(lowered.output)")
        #expect(!lowered.errors.contains("asks for more"), "\(lowered.errors)")
    }

    @Test func anAbsurdOutputLimitIsRefusedWithItsLine() throws {
        let directory = try suite(["talk.asm": "nop\n; asmrun: limit output 1024G\n" + Self.talker])
        defer { Files.removeTree(directory) }
        let result = Fixture.test([directory, "--runner", Fixture.runner, "--no-cache"])
        #expect(result.status != 0)
        let line = "\(directory)/talk.asm:2: `limit output 1024G` is out of range: a size from 1 to 256M"
        #expect((result.output + result.errors).contains(line), "\(result.output)\(result.errors)")
    }

    @Test func theCommandLinesMemoryCeilingHolds() throws {
        let directory = try suite([
            "talk.asm": "; asmrun: limit file-size 64M\n" + Self.talker, "talk.expect": "[case default]\nstatus: exit 0\n",
        ])
        defer { Files.removeTree(directory) }
        let result = Fixture.test([directory, "--runner", Fixture.runner, "--limit", "file-size=1M", "--no-cache"])
        #expect(result.errors.contains("limit file-size 67108864 (runs with 1048576)"), "\(result.errors)")
    }

    /// A case's 300 MB of output made asmrun hold 535 MB when its source raised the limit: now
    /// asmrun keeps the command line's 1 MiB of it (peak RSS by /usr/bin/time, in KiB).
    @Test(.enabled(if: access("/usr/bin/time", X_OK) == 0, "needs /usr/bin/time"))
    func aSourceCannotMakeAsmrunHoldItsOutput() throws {
        let flood = """
            ; asmrun: limit output 256M
            global _start
            section .bss
            buffer: resb 1048576
            section .text
            _start:
                mov r12, 300
            again:
                mov eax, 1
                mov edi, 1
                lea rsi, [rel buffer]
                mov edx, 1048576
                syscall
                dec r12
                jnz again
                mov eax, 60
                xor edi, edi
                syscall

            """
        let directory = try suite(["flood.asm": flood, "flood.expect": "[case default]\nstatus: exit 0\n"])
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(
            ["-f", "peak %M", Fixture.binary, "test", directory, "--runner", Fixture.runner, "--no-cache", "-j", "1"],
            executable: "/usr/bin/time")
        #expect(result.stdout.contains("output limit exceeded: more than 1048576 bytes"), "\(result.stdout)")
        let peak = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) }
        #expect(peak.map { $0 < 64 << 10 } == true, "asmrun's peak RSS \(peak ?? -1) KiB: \(result.stderr)")
    }
}
