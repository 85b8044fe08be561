import Foundation
import Support
import Testing

/// `stdout: any` / `stderr: any`: a test driver is judged by its status alone, and when that
/// fails, what it printed is shown (issue 33, item 3).
@Suite(.tags(.integration), .needsTools)
struct StreamsNotCheckedTests {
    /// Prints a driver's report on stdout and a note on stderr, then exits with `status`.
    static func driver(status: Int) -> String {
        """
        section .data
        out: db "3 tests, 1 failure", 10, "test_leap: FAILED", 10
        err: db "driver: done", 10
        section .text
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel out]
            mov edx, 37
            syscall
            mov eax, 1
            mov edi, 2
            lea rsi, [rel err]
            mov edx, 13
            syscall
            mov eax, 60
            mov edi, \(status)
            syscall

        """
    }

    @Test func aStatusOnlyCaseIgnoresTheStreamsAndShowsThemWhenItFails() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.driver(status: 0), to: directory + "/passes.asm")
        try Fixture.write(Self.driver(status: 1), to: directory + "/fails.asm")
        let expectation = "[case default]\nstdout: any\nstderr: any\nstatus: exit 0\n"
        try Fixture.write(expectation, to: directory + "/passes.expect")
        try Fixture.write(expectation, to: directory + "/fails.expect")
        let result = Fixture.test([directory, "--runner", Fixture.runner])
        #expect(result.status == 1)
        #expect(result.output.hasSuffix("1 passed, 1 failed\n"), "\(result.output)")
        #expect(
            result.output.contains(
                "FAIL  \(directory)/fails.asm:default [\(Fixture.runner)]: status differs\n    status:\n    expected exit 0, got exit 1\n"
                    + "    stdout (not checked; what it printed):\n    | 3 tests, 1 failure\n    | test_leap: FAILED\n"
                    + "    stderr (not checked; what it printed):\n    | driver: done\n"), "\(result.output)")
        #expect(result.output.contains("PASS  \(directory)/passes.asm:default [\(Fixture.runner)] ("), "\(result.output)")
    }

    @Test func aCheckedStreamIsADiffNotAListing() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.driver(status: 1), to: directory + "/fails.asm")
        try Fixture.write("[case default]\nstdout: any\nstderr:\n| driver: done\nstatus: exit 0\n", to: directory + "/fails.expect")
        let result = Fixture.test([directory, "--runner", Fixture.runner])
        #expect(result.output.contains("stdout (not checked; what it printed):\n    | 3 tests, 1 failure\n"), "\(result.output)")
        #expect(!result.output.contains("stderr (not checked"), "stderr is checked (and matched): not listed")
    }
}
