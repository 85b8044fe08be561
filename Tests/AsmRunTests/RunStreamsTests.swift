import Foundation
import Processes
import Support
import Testing

/// `asmrun FILE.asm`'s standard streams as a shell sees them, natively and under qemu.
@Suite(.tags(.integration), .needsTools)
struct RunStreamsTests {
    /// Standard output and error written to one file keep the program's order, under qemu too
    /// (a relay of standard error put `err2` after `out3` four runs in five).
    @Test(arguments: Fixture.nativeHost ? ["native", "qemu"] : ["qemu"]) func outputAndErrorKeepTheirOrderInOneFile(runner: String) throws {
        let directory = try Fixture.folder([
            "order.asm": """
            global _start
            _start:
                mov edi, 1
                lea rsi, [rel out1]
                call say
                mov edi, 2
                lea rsi, [rel err2]
                call say
                mov edi, 1
                lea rsi, [rel out3]
                call say
                mov eax, 60
                xor edi, edi
                syscall
            say:
                mov eax, 1
                mov edx, 5
                syscall
                ret
            section .data
            out1: db "out1", 10
            err2: db "err2", 10
            out3: db "out3", 10

            """
        ])
        defer { Files.removeTree(directory) }
        var options = LaunchOptions()
        options.timeout = 60
        for _ in 0..<5 {
            let run = try PosixLauncher(path: Fixture.environment["PATH"]).run(
                Command(
                    "/bin/sh", ["-c", "\"$0\" order.asm --runner \(runner) 2>&1", Fixture.binary], environment: Fixture.environment,
                    workingDirectory: directory),
                options: options)
            #expect(String(decoding: run.stdout, as: UTF8.self) == "out1\nerr2\nout3\n")
        }
    }
}
