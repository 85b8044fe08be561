import Foundation
import Glibc
import Processes
import Support
import Testing

/// A crash that depends on the program's input, end to end with the built binary: the repeat
/// under the debugger gets the same stdin (a pipe relayed and kept, a file reopened at its
/// offset), the relay gives the program exactly its input, and a crash that does not repeat
/// says so in one line.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
struct CrashInputTests {
    /// Reads one digit and divides 100 by it.
    static let divide = """
        section .bss
        buf:    resb 16
        section .text
        global _start
        _start:
                xor     eax, eax                ; read(0, buf, 16)
                xor     edi, edi
                lea     rsi, [rel buf]
                mov     edx, 16
                syscall
                movzx   ecx, byte [rel buf]
                sub     ecx, '0'
                mov     eax, 100
                xor     edx, edx
                div     ecx                     ; crash
                mov     edi, eax
                mov     eax, 60
                syscall

        """

    /// Crashes when its stdin is a pipe: under the debugger it reads the same bytes from a file.
    static let pipeOnly = """
        section .bss
        info:   resb 144
        section .text
        global _start
        _start:
                mov     eax, 5                  ; fstat(0, info)
                xor     edi, edi
                lea     rsi, [rel info]
                syscall
                mov     eax, [rel info + 24]    ; st_mode
                and     eax, 0xf000
                cmp     eax, 0x1000             ; S_IFIFO
                jne     .out
                mov     [0], eax                ; crash
        .out:   mov     eax, 60
                xor     edi, edi
                syscall

        """

    enum Way: String, CaseIterable, Sendable {
        case native, qemu, arm
        var arguments: [String] { self == .arm ? [] : ["--runner", rawValue] }
        var environment: [String: String] { self == .arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:] }
    }

    static let ways = Fixture.nativeHost ? Way.allCases : [.qemu, .arm]

    /// `sh -c script asmrun arguments...` (the script runs asmrun as `"$0" "$@"`), with `stdin`.
    private static func shell(
        _ script: String, _ arguments: [String], environment extra: [String: String] = [:], stdin: InputSource = .empty
    ) throws -> (stdout: [UInt8], stderr: String, status: Termination) {
        var environment = Fixture.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in extra { environment[key] = value }
        var options = LaunchOptions()
        options.stdin = stdin
        options.stdout = .capture(limit: 4 << 20)
        options.timeout = 120
        let result = try PosixLauncher(path: environment["PATH"]).run(
            Command("/bin/sh", ["-c", script, Fixture.binary] + arguments, environment: environment), options: options)
        return (result.stdout, String(decoding: result.stderr, as: UTF8.self), result.termination)
    }

    private func program(_ text: String, named name: String) throws -> (directory: String, path: String) {
        let directory = try Fixture.temporaryDirectory()
        try Fixture.write(text, to: directory + "/" + name)
        return (directory, directory + "/" + name)
    }

    /// The report's headline, source line and hint for the division.
    private func expectDivisionReport(_ stderr: String, path: String) {
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "asmrun: \(path):15: SIGFPE (floating-point exception)", "\(lines)")
        #expect(lines.dropFirst().first == "    15 |         div     ecx                     ; crash")
        #expect(lines.contains("  hint: division by zero: ecx was 0"), "\(lines)")
    }

    @Test(arguments: ways) func pipedInputIsReplayedUnderTheDebugger(way: Way) throws {
        let (directory, path) = try program(Self.divide, named: "div.asm")
        defer { Files.removeTree(directory) }
        let result = try Self.shell("printf 0 | \"$0\" \"$@\"", [path] + way.arguments, environment: way.environment)
        expectDivisionReport(result.stderr, path: path)
        #expect(result.status == .exited(136))
    }

    @Test(arguments: ways) func aFileIsReplayedFromTheOffsetItHadWhenAsmrunStarted(way: Way) throws {
        let (directory, path) = try program(Self.divide, named: "div.asm")
        defer { Files.removeTree(directory) }
        // The shell reads the first byte of the file; asmrun and the program start at the `0`.
        let script = "dd bs=1 count=1 of=/dev/null 2>/dev/null; exec \"$0\" \"$@\""
        let result = try Self.shell(script, [path] + way.arguments, environment: way.environment, stdin: .bytes(Array("50".utf8)))
        expectDivisionReport(result.stderr, path: path)
        #expect(result.status == .exited(136))
    }

    @Test(arguments: ways.filter { $0 != .arm }) func theRelayGivesTheProgramExactlyItsInput(way: Way) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // Every byte value, 300 KiB and an odd tail: several pipe-fulls, partial reads.
        let input = (0..<((300 << 10) + 13)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        try AtomicFile.write(input, to: directory + "/input.bin")
        let result = try Self.shell(
            "cat \"\(directory)/input.bin\" | \"$0\" \"$@\"", [Fixture.corpus + "/echo.asm"] + way.arguments)
        #expect(result.stdout.count == input.count && result.stdout == input, "\(result.stdout.count) bytes back of \(input.count)")
        #expect(result.stderr == "")
        #expect(result.status == .exited(0))
    }

    @Test(arguments: ways.filter { $0 != .arm }) func aCrashThatDoesNotRepeatSaysSoInOneLine(way: Way) throws {
        let (directory, path) = try program(Self.pipeOnly, named: "pipe_only.asm")
        defer { Files.removeTree(directory) }
        let result = try Self.shell("printf x | \"$0\" \"$@\"", [path] + way.arguments)
        #expect(
            result.stderr == """
                asmrun: \(path): killed by SIGSEGV (segmentation fault)
                asmrun: no crash report: the crash did not repeat under the debugger with the same input \
                (it may depend on timing or on the terminal): give the input in a `stdin:` block of an `asmrun test` case, \
                or run it under `asmrun debug \(path)`

                """)
        #expect(result.status == .exited(139))
    }

    @Test(arguments: ways.filter { $0 != .arm }) func inputTypedAtATerminalCannotBeReplayed(way: Way) throws {
        let (directory, path) = try program(Self.divide, named: "div.asm")
        defer { Files.removeTree(directory) }
        let (master, terminal) = try CallerInputTests.pseudoTerminal()
        defer {
            close(master)
            close(terminal)
        }
        #expect(write(master, "0\n", 2) == 2)
        // The repeat reads nothing: 100 / (0 - '0') does not trap.
        let result = try Self.shell("exec \"$0\" \"$@\"", [path] + way.arguments, stdin: .descriptor(terminal))
        #expect(
            result.stderr == """
                asmrun: \(path): killed by SIGFPE (floating-point exception)
                asmrun: no crash report: the crash did not repeat under the debugger, where the input typed at the terminal \
                cannot be replayed: give the input in a `stdin:` block of an `asmrun test` case, or run it under \
                `asmrun debug \(path)` and type it there

                """)
        #expect(result.status == .exited(136))
    }

    /// Ctrl-C reaches the program as in a shell, and asmrun exits at once although the relay
    /// still waits for input that never comes (the test keeps the pipe open).
    @Test func anInterruptEndsTheRunWhileTheRelayWaits() throws {
        let (directory, path) = try program(
            """
            section .bss
            buf:    resb 1
            section .text
            global _start
            _start:
                    xor     eax, eax            ; read(0, buf, 1): the relay works
                    xor     edi, edi
                    lea     rsi, [rel buf]
                    mov     edx, 1
                    syscall
                    mov     eax, 62             ; kill(0, SIGINT): Ctrl-C to the whole group
                    xor     edi, edi
                    mov     esi, 2
                    syscall
                    mov     eax, 60
                    mov     edi, 1
                    syscall

            """, named: "interrupt.asm")
        defer { Files.removeTree(directory) }
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(write(fds[1], "x", 1) == 1)
        let result = try Self.shell("exec \"$0\" \"$@\"", [path, "--runner", Fixture.runner], stdin: .descriptor(fds[0]))
        #expect(result.status == .exited(130), "\(result.stderr)")
        #expect(result.stderr == "")
    }
}
