import Foundation
import Support
import Testing

/// The expectations a grader writes, with the built binary: statuses that accept more than one
/// outcome, comments `--update` keeps, output-only cases, the output of a timed-out case, and
/// `--update` saying out loud when it records a crash or runners that disagree.
@Suite(.tags(.integration), .needsTools)
struct GraderExpectationTests {
    /// Prints `hi`, then dies by SIGSEGV.
    static let crash = """
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel msg]
            mov edx, 3
            syscall
            mov rax, [0]
        section .data
        msg: db "hi", 10

        """
    static var runner: String { Fixture.runner }

    private func folder(_ source: String, _ expect: String?) throws -> String {
        let directory = try Fixture.temporaryDirectory()
        try Fixture.write(source, to: directory + "/p.asm")
        if let expect { try Fixture.write(expect, to: directory + "/p.expect") }
        return directory
    }

    @Test func statusAnyASetAndOutputOnlyCasesAreExpectations() throws {
        let expect = """
            [case any]
            stdout:
            | hi
            status: any

            [case set]
            stdout:
            | hi
            status: exit 0 | signal SIGSEGV

            [case output-only]
            stdout:
            | hi

            [case exit-any]
            stdout:
            | hi
            status: exit any

            """
        let directory = try folder(Self.crash, expect)
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["test", "p.asm", "--runner", Self.runner], in: directory)
        #expect(result.stdout.contains("PASS  p.asm:any"), "\(result.stdout)")
        #expect(result.stdout.contains("PASS  p.asm:set"))
        #expect(result.stdout.contains("PASS  p.asm:output-only"), "a case with stdout and no status checks no status")
        #expect(!result.stdout.contains("no expectations recorded yet"))
        #expect(
            result.stdout.contains(
                "FAIL  p.asm:exit-any [\(Self.runner)]: status differs\n    status:\n    expected exit any, got signal SIGSEGV\n"))
        #expect(result.stdout.hasSuffix("3 passed, 1 failed\n"))
        try Fixture.write("[case bad]\nstatus: exit 0 | sometimes\n", to: directory + "/p.expect")
        let bad = try Fixture.asmrun(["test", "p.asm", "--runner", Self.runner], in: directory)
        #expect(bad.stdout.contains("p.expect:2: status must be `exit N` (N from 0 to 255), `signal NAME`, `timeout`, `exit any` or `any`"))
    }

    @Test func updateKeepsCommentsInsideCasesAndSaysWhenItRecordsACrash() throws {
        // The case `--update` keeps, comments and all, as it stands in the file before and after.
        let kept = """
            # the header

            # worth 2 points
            [case kept]
            points: 2
            # what it prints
            stdout:
            | hi
            # anything goes
            status: any

            """
        let expect = kept + "# the end of the case\n\n[case new]\n# a case nobody recorded yet\nargs: x\n"
        let directory = try folder(Self.crash, expect)
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["test", "p.asm", "--update", "--runner", Self.runner], in: directory)
        #expect(result.status == .exited(0), "\(result)")
        #expect(result.stderr.contains("warning: p.asm:new [\(Self.runner)]: recorded a crash (SIGSEGV) as expected\n"))
        #expect(!result.stderr.contains("p.asm:kept"), "a status that still accepts the crash is not recorded again")
        let written = try String(contentsOfFile: directory + "/p.expect", encoding: .utf8)
        #expect(
            written == kept + """

                # the end of the case
                [case new]
                # a case nobody recorded yet
                args: x
                stdout:
                | hi
                status: signal SIGSEGV

                """, "\(written)")
        let again = try Fixture.asmrun(["test", "p.asm", "--update", "--runner", Self.runner], in: directory)
        #expect(!again.stderr.contains("warning:"), "nothing new recorded, nothing said: \(again.stderr)")
        #expect(try String(contentsOfFile: directory + "/p.expect", encoding: .utf8) == written)
    }

    @Test func updateSaysWhenItRecordsATimeoutOrRunnersThatDisagree() throws {
        let spin = "global _start\n_start:\n    jmp _start\n"
        let directory = try folder(spin, nil)
        defer { Files.removeTree(directory) }
        let timeout = try Fixture.asmrun(["test", "p.asm", "--update", "--timeout", "0.3", "--runner", Self.runner], in: directory)
        #expect(timeout.stderr.contains("warning: p.asm:default [\(Self.runner)]: recorded a timeout as expected\n"), "\(timeout)")
        // A prefix runner that runs the program and exits 7 whatever it did.
        let seven = directory + "/seven.sh"
        try Fixture.write("#!/bin/sh\n\"$@\"\nexit 7\n", to: seven)
        chmod(seven, 0o755)
        try Fixture.write("global _start\n_start:\n    mov eax, 60\n    xor edi, edi\n    syscall\n", to: directory + "/p.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/p.expect")
        let disagree = try Fixture.asmrun(["test", "p.asm", "--update", "--runner", "\(Self.runner),\(seven)"], in: directory)
        #expect(
            disagree.stderr.contains(
                "warning: p.asm:default [\(seven)]: \(seven) and \(Self.runner) disagree: recorded status @\(seven); check which is right"),
            "\(disagree)")
        #expect(try String(contentsOfFile: directory + "/p.expect", encoding: .utf8).hasSuffix("status @\(seven): exit 7\n"))
    }

    @Test func aTimedOutCaseShowsTheOutputItProduced() throws {
        // Fixture.hello, spinning where it would exit.
        let exit = "    mov eax, 60\n    xor edi, edi\n    syscall\n"
        let partial = Fixture.hello.replacingOccurrences(of: exit, with: ".spin:\n    jmp .spin\n")
        try #require(partial.contains(".spin") && !partial.contains("mov eax, 60"))
        let directory = try folder(partial, "[case default]\nstdout:\n| hello\n| part2\nstatus: exit 0\n")
        defer { Files.removeTree(directory) }
        let result = try Fixture.asmrun(["test", "p.asm", "--timeout", "0.3", "--runner", Self.runner], in: directory)
        #expect(result.status == .exited(1))
        #expect(result.stdout.contains("TIME  p.asm:default [\(Self.runner)]: timed out after 0.3 s"))
        #expect(result.stdout.contains("(below: its output until then against the expected)\n    stdout:\n"), "\(result.stdout)")
        #expect(result.stdout.contains("     hello\n    -part2\n"))
    }
}
