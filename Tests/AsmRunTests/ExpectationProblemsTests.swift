import Compare
import Foundation
import Support
import Testing

@testable import Processes

/// Every way a `.expect` file can be malformed is reported as `NAME.expect:LINE: problem; fix`:
/// one row per error path of the parser (`ExpectationParser.fail` and the UTF-8 check), and the
/// case whose `args:`/`env:` lines `execve` would refuse, found when it runs.
@Suite struct ExpectationProblemsTests {
    /// Malformed text, the line the problem is on, and words of the problem.
    static let malformed: [(text: String, line: Int, says: String)] = [
        ("status: exit 0\n", 1, "outside a case"),
        ("[case ]\n", 1, "needs a name"),
        ("[case a:b]\n", 1, "needs a name without `:`"),
        ("[case a]\n[case a]\n", 2, "appears twice"),
        ("[case a]\nstdout:\n~ \\q\n", 3, "bad escape"),
        ("[case a]\nstdout:\n\\ what\n", 3, "unknown marker"),
        ("[case a]\nstdout:\n\\ no newline at end\n", 3, "unknown marker"),
        ("[case a]\ninput x @qemu:\n| a\n", 2, "input files cannot be runner-specific"),
        ("[case a]\ninput x:\n| a\ninput x:\n| b\n", 4, "input `x` appears twice"),
        ("[case a]\nstdin: x\n", 2, "takes its content on the following"),
        ("[case a]\ninput ../x:\n| a\n", 2, "not a path inside the case folder"),
        ("[case a]\nfile /etc/passwd:\n| a\n", 2, "not a path inside the case folder"),
        ("[case a]\nargs @qemu: x\n", 2, "args cannot be runner-specific"),
        ("[case a]\nargs: \"unclosed\n", 2, "unterminated quote"),
        ("[case a]\nenv: NOEQUALS\n", 2, "env needs NAME=VALUE"),
        ("[case a]\nstdin @qemu:\n", 2, "stdin cannot be runner-specific"),
        ("[case a]\nstatus: exit 999\n", 2, "status must be"),
        ("[case a]\npoints @qemu: 1\n", 2, "points cannot be runner-specific"),
        ("[case a]\npoints: -1\n", 2, "points must be a number"),
        ("[case a]\nbogus: 1\n", 2, "unknown field `bogus`"),
        ("[case a]\ntimeout @qemu: 1\n", 2, "timeout cannot be runner-specific"),
        ("[case a]\nvisibility: seen\n", 2, "visibility must be"),
        ("[case a]\ntimeout: forever\n", 2, "timeout must be a number"),
        ("[case a]\nlimit: cows 3\n", 2, "unknown limit `cows`"),
        ("[case a]\nlimit:\n", 2, "needs a limit name"),
        ("[case a]\nlimit: memory 1G\nlimit: memory 2G\n", 3, "limit `memory` appears twice"),
        ("[case a]\nbogus\n", 2, "expected `field: value`"),
        ("[case a]\nstdout @qemu\n", 2, "expected `field: value`"),
        ("[case a]\nstdout @qemu:x\n", 2, "expected `field @runner:`"),
        // A byte order mark and carriage returns do not shift the count.
        ("\u{FEFF}[case a]\r\n# fine\r\n\r\n[case b]\r\nstatus: x\r\n", 5, "status must be"),
        // A field given twice used to keep the last one silently.
        ("[case a]\nstdout:\n| a\nstatus: exit 0\nstdout:\n| b\n", 5, "`stdout:` appears twice in case `a` (first on line 2)"),
        ("[case a]\nstatus @qemu: exit 1\nstatus @qemu: exit 2\n", 3, "`status @qemu:` appears twice"),
        ("[case a]\nargs: 1\nargs: 2\n", 3, "`args:` appears twice"),
        ("[case a]\nfile out.txt:\n| a\nfile out.txt:\n| b\n", 4, "`file out.txt:` appears twice"),
    ]

    @Test(arguments: malformed)
    func eachProblemNamesItsFileAndLine(text: String, line: Int, says: String) {
        let error = #expect(throws: FileError.self, "\(text.debugDescription)") {
            try ExpectationFile.parse(Array(text.utf8), path: "dir/name.expect")
        }
        let rendered = error.map { "\($0)" } ?? ""
        #expect(rendered.hasPrefix("dir/name.expect:\(line): "), "\(text.debugDescription) → \(rendered)")
        #expect(rendered.contains(says), "\(text.debugDescription) → \(rendered)")
    }

    @Test func bytesThatAreNotUTF8NameTheirLine() {
        let error = #expect(throws: FileError.self) {
            try ExpectationFile.parse(Array("[case a]\nstdout:\n".utf8) + [0x7C, 0x20, 0xFF, 0x0A], path: "name.expect")
        }
        #expect(error.map { "\($0)" }?.hasPrefix("name.expect:3: is not UTF-8 text") == true)
    }

    /// Fields that may repeat still do: `env` lines add up.
    @Test func envLinesStillAddUp() throws {
        let file = try ExpectationFile.parse(Array("[case a]\nenv: A=1\nenv: B=2\n".utf8), path: "name.expect")
        #expect(file.cases.first?.environment == ["A=1", "B=2"])
    }

    /// What `execve` would refuse is found when the case runs: the `args:` or `env:` line is named.
    @Test(arguments: [
        ("[case a]\nstatus: exit 0\nargs: small BIG\n", 3, "argument 2"),
        ("[case a]\nenv: A=1\nenv: HUGE=BIG\n", 3, "environment variable HUGE"),
        ("[case a]\nargs: MANY\nenv: A=1\n", 3, "the arguments and environment take"),
    ])
    func argumentsTooLargeNameTheirLine(text: String, line: Int, says: String) throws {
        let big = String(repeating: "x", count: ArgumentSpace.maxStringBytes + 10)
        let many = Array(repeating: String(repeating: "y", count: 100_000), count: ArgumentSpace.maxTotalBytes / 100_000 + 1)
        let filled = text.replacingOccurrences(of: "BIG", with: big).replacingOccurrences(of: "MANY", with: many.joined(separator: " "))
        let file = try ExpectationFile.parse(Array(filled.utf8), path: "name.expect")
        let found = try #require(file.cases.first?.argumentSpaceProblem)
        #expect(found.line == line)
        #expect(found.problem.hasPrefix(says), "\(found.problem)")
    }

    /// Through a real run: the error line of the case names `hello.expect:LINE`.
    @Test(.tags(.integration), .needsTools)
    func aRunNamesTheLineOfArgumentsTooLarge() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/hello.asm", toPath: suite + "/hello.asm")
        let big = String(repeating: "x", count: ArgumentSpace.maxStringBytes + 10)
        try Fixture.write("[case a]\n# a comment\nargs: \(big)\n", to: suite + "/hello.expect")
        let result = Fixture.test([suite, "--runner", "qemu", "--no-cache"])
        #expect(result.status == 1)
        #expect(result.output.contains("hello.expect:3: case `a`: argument 1"), "\(result.output)")
    }
}
