import CLI
import Foundation
import Glibc
import Processes
import Support
import Testing

/// `asmrun --watch` on a pseudo-terminal: a program that turned echo off and waits is ended by
/// a second interrupt that comes while the first still stops the watch, and the terminal is
/// put back all the same (`ExitStatus.abandon`). Natively and as on an ARM host.
@Suite(.tags(.integration), .needsTools, .serialized)
struct WatchTerminalTests {
    /// Turns echo off on its terminal (TCGETS, ECHO cleared, TCSETS), says so and waits forever.
    static let echoOff = WatchTests.waiting(
        "msg: db \"ready\", 10\nmsglen: equ $ - msg\nsection .bss\nsettings: resb 64",
        first: """
                mov eax, 16
                xor edi, edi
                mov esi, 0x5401
                lea rdx, [rel settings]
                syscall
                and dword [rel settings + 12], ~8
                mov eax, 16
                xor edi, edi
                mov esi, 0x5402
                lea rdx, [rel settings]
                syscall
            """)

    static func echoes(_ descriptor: Int32) -> Bool {
        var settings = termios()
        tcgetattr(descriptor, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// The front end gives the watch its way out (`WatchAbandonTests` checks that a watch takes
    /// it at the second interrupt): the test below passes without it, the first interrupt ending
    /// the watch all the same.
    @Test func theFrontEndHandsTheWatchItsWayOut() {
        #expect(Context.live().abandon != nil)
    }

    @Test(arguments: [false, true]) func aSecondInterruptLeavesTheTerminalRestored(arm: Bool) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.echoOff, to: directory + "/quiet.asm")
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        #expect(Self.echoes(terminal.slave))
        let process = try terminal.start(
            [Fixture.binary, "--watch", "quiet.asm"], in: directory,
            environment: ["PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory, "NO_COLOR": "1"].merging(
                arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:]
            ) { $1 })
        _ = try terminal.read(until: "ready", then: "\n")
        #expect(!Self.echoes(terminal.slave), "the program turned echo off")
        // Two interrupts at once (Ctrl-C and SIGTERM, which count alike; two SIGINTs would be
        // one while pending): the second comes while the first still stops the watch.
        let asmrun = tcgetpgrp(terminal.master)  // asmrun leads the terminal's session
        kill(asmrun, SIGSTOP)
        kill(asmrun, SIGINT)
        kill(asmrun, SIGTERM)
        kill(asmrun, SIGCONT)
        try terminal.waitForExit(process)
        #expect(process.terminationStatus == 130)
        #expect(Self.echoes(terminal.slave), "the terminal is put back")
    }
}
