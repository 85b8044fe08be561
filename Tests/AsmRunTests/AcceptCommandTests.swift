import Foundation
import Processes
import Report
import Support
import Testing

/// Every failing case ends with the command that records it alone (issue 33, item 4), and
/// running that command does.
@Suite struct AcceptCommandTests {
    @Test func caseNamesAreMatchedLiterally() throws {
        let pattern = ":" + AcceptCommand.literal("a.b (2)+") + "$"
        let regex = try Regex(pattern)
        #expect("x.asm:a.b (2)+".contains(regex))
        #expect(!"x.asm:aXb (2)+".contains(regex) && !"x.asm:a.b (2)++".contains(regex))
    }

    /// A name with control characters prints escaped, and the line still runs: the path quoted
    /// `$'…'` (bash reads it back byte for byte), the case name matched by `\x{HEX}`.
    @Test func controlCharactersAreQuotedSoTheLineRuns() throws {
        let path = "t2/x\u{1b}[31mred's\\.asm"
        let quoted = ShellWords.quoteForTerminal(path)
        #expect(quoted == "$'t2/x\\x1b[31mred\\'s\\\\.asm'")
        #expect(quoted.displayEscaped == quoted, "it prints as it is")
        var options = LaunchOptions()
        options.timeout = 30
        let echoed = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("/bin/bash", ["-c", "printf %s " + quoted]), options: options)
        #expect(echoed.stdout == Array(path.utf8))
        let name = "n\u{01}\u{7f}\u{85}é"
        let pattern = ":" + AcceptCommand.literal(name) + "$"
        #expect(pattern == ":n\\x{1}\\x{7f}\\x{85}é$")
        #expect(("p.asm:" + name).contains(try Regex(pattern)))
        #expect(!("p.asm:n\u{01}\u{7f}\u{85}e").contains(try Regex(pattern)))
    }

    @Test(.tags(.integration), .needsTools)
    func theLineRecordsThatCaseAloneWhenRun() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let source = "global _start\n_start:\n    mov rdi, [rsp]\n    mov eax, 60\n    syscall\n"
        try Fixture.write(source, to: directory + "/my prog's/p.asm")
        let cases = "[case one arg]\nstatus: exit 9\n\n[case two.args]\nargs: a b\nstatus: exit 9\n"
        try Fixture.write(cases, to: directory + "/my prog's/p.expect")
        let failing = try Fixture.asmrun(["test", "my prog's", "--runner", Fixture.runner], in: directory)
        #expect(failing.status == .exited(1))
        let line = "    accept with: asmrun test 'my prog'\\''s/p.asm' --update --filter ':two\\.args$' --runner \(Fixture.runner)\n"
        #expect(failing.stdout.contains("expected exit 9, got exit 3\n" + line), "\(failing.stdout)")
        // The shell runs it as printed (with the binary under test as `asmrun`).
        let command = String(line.dropFirst("    accept with: ".count)).replacing("asmrun test", with: "\"$0\" test")
        var options = LaunchOptions()
        options.timeout = 60
        let accepted = try PosixLauncher(path: Fixture.environment["PATH"]).run(
            Command("/bin/sh", ["-c", command, Fixture.binary], environment: Fixture.environment, workingDirectory: directory),
            options: options)
        #expect(accepted.termination == .exited(0), "\(String(decoding: accepted.stdout + accepted.stderr, as: UTF8.self))")
        let expect = try String(contentsOfFile: directory + "/my prog's/p.expect", encoding: .utf8)
        #expect(
            expect.hasSuffix("[case one arg]\nstatus: exit 9\n\n[case two.args]\nargs: a b\nstatus: exit 3\n"),
            "the other case is kept: \(expect)")
        let updating = try Fixture.asmrun(["test", "my prog's", "--update", "--runner", Fixture.runner], in: directory)
        #expect(!updating.stdout.contains("accept with"), "a run that records says nothing of accepting")
    }
}
