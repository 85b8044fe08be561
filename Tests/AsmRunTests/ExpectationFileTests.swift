import Foundation
import Support
import Testing

@testable import Compare

@Suite struct ExpectationFileTests {
    private func lines(_ text: String) -> TextLines { TextLines(Array(text.utf8)) }

    private let sample = """
        # kept header

        [case quoted]
        args: 'two words' x
        env: A=1=2
        stdin:
        | in
        stdout:
        | out [..]
        ~ bin\\x00\\r
        \\ no newline at end
        status: exit 3
        stdout @qemu:
        status @qemu: signal SIGILL

        [case second]
        status: timeout

        """

    @Test func statusLinesParseAlikeWhateverTheirShape() {
        // `exit N` has a fast path; the general one must agree on every neighbour of it.
        #expect(ExpectedStatus.parse("exit 0") == ExpectedStatus(.exited(0)))
        #expect(ExpectedStatus.parse("exit 255") == ExpectedStatus(.exited(255)))
        #expect(ExpectedStatus.parse("exit 007") == ExpectedStatus(.exited(7)))
        #expect(ExpectedStatus.parse("exit  3") == ExpectedStatus(.exited(3)))
        #expect(ExpectedStatus.parse("exit 0255") == ExpectedStatus(.exited(255)))
        for refused in ["exit 256", "exit 1000", "exit -1", "exit 1a", "exit ", "exit", "exit 3 4"] {
            #expect(ExpectedStatus.parse(refused) == nil, "\(refused)")
        }
        #expect(ExpectedStatus.parse("exit 3|exit 4") == ExpectedStatus(alternatives: [.status(.exited(3)), .status(.exited(4))]))
    }

    @Test func parsesEveryField() throws {
        let file = try ExpectationFile(parsing: sample, path: "x.expect")
        #expect(file.header == ["# kept header"])
        #expect(file.cases.map(\.name) == ["quoted", "second"])
        let first = file.cases[0]
        #expect(first.arguments == ["two words", "x"])
        #expect(first.environment == ["A=1=2"])
        #expect(first.stdin == lines("in\n"))
        #expect(first.expected.stdout == TextLines(lines: [Array("out [..]".utf8), Array("bin".utf8) + [0, 13]], endsWithNewline: false))
        #expect(first.expected.status?.single == .exited(3))
        #expect(first.overrides["qemu"] == Expected(stdout: TextLines(lines: []), status: .signaled(4)))
        #expect(first.effective(for: "native").status?.single == .exited(3))
        #expect(first.effective(for: "qemu").stdout.lines.isEmpty)
        #expect(file.cases[1].expected.status?.single == .timedOut)
    }

    @Test func serializationRoundTrips() throws {
        let file = try ExpectationFile(parsing: sample, path: "x.expect")
        let text = file.serialized()
        #expect(try ExpectationFile(parsing: text, path: "x.expect") == file)
        #expect(
            text.contains(
                "[case quoted]\nargs: 'two words' x\nenv: A=1=2\nstdin:\n| in\nstdout:\n| out [..]\n~ bin\\x00\\r\n\\ no newline at end\nstatus: exit 3\nstdout @qemu:\nstatus @qemu: signal SIGILL\n"
            ))
    }

    @Test func trailingBlanksAreSpelledOut() throws {
        var file = ExpectationFile()
        file.record(
            caseNamed: "default",
            observations: [("native", Observation(stdout: lines("x  \n\tindented\n"), stderr: lines(""), status: .exited(0)))])
        let text = file.serialized()
        #expect(text.contains("~ x\\x20\\x20\n| \tindented\n"))
        #expect(try ExpectationFile(parsing: text, path: "x").cases[0].expected.stdout == lines("x  \n\tindented\n"))
    }

    @Test func customRunnerNamesMayContainColons() throws {
        let file = try ExpectationFile(parsing: "[case a]\nstatus @sh -c 'x:y': exit 1\nstdout @env A=b:c:\n| z\n", path: "x")
        #expect(file.cases[0].overrides["sh -c 'x:y'"]?.status?.single == .exited(1))
        #expect(file.cases[0].overrides["env A=b:c"]?.stdout == lines("z\n"))
    }

    @Test func malformedFilesNameTheLine() {
        let bad: [(String, String)] = [
            ("stdout:\n", "x.expect:1"),
            ("[case a]\nstatus: exited 0\n", "x.expect:2"),
            ("[case a]\n[case a]\n", "x.expect:2"),
            ("[case a]\nstdout:\n~ \\q\n", "x.expect:3"),
            ("[case a]\nfrob: 1\n", "x.expect:2"),
            ("[case a]\n\\ no newline at end\n", "x.expect:2"),
        ]
        for (text, location) in bad {
            let error = #expect(throws: FileError.self, "\(text)") { try ExpectationFile(parsing: text, path: "x.expect") }
            #expect(error?.location?.description == location, "\(text)")
        }
    }

    @Test func recordKeepsMatchingHolesAndAddsOverridesOnlyForDifferences() throws {
        var file = try ExpectationFile(parsing: "[case a]\nstdout:\n| pid [..]\nstatus: exit 0\n", path: "x")
        let native = Observation(stdout: lines("pid 42\n"), stderr: lines(""), status: .exited(0))
        let qemu = Observation(stdout: lines("pid 43\n"), stderr: lines("warn\n"), status: .exited(0))
        file.record(caseNamed: "a", observations: [("native", native), ("qemu", qemu)])
        #expect(file.cases[0].expected.stdout == lines("pid [..]\n"))
        #expect(file.cases[0].overrides["qemu"] == Expected(stderr: lines("warn\n")))
        // qemu stops warning: its override goes away.
        file.record(caseNamed: "a", observations: [("native", native), ("qemu", native)])
        #expect(file.cases[0].overrides.isEmpty)
    }

    @Test func recordUpdatesTheDefaultFromTheBaseline() throws {
        var file = try ExpectationFile(parsing: "[case a]\nstdout:\n| old\nstatus: exit 0\nstatus @qemu: signal SIGILL\n", path: "x")
        let now = Observation(stdout: lines("new\n"), stderr: lines(""), status: .exited(0))
        file.record(caseNamed: "a", observations: [("native", now)])
        #expect(file.cases[0].expected.stdout == lines("new\n"))
        #expect(file.cases[0].overrides["qemu"]?.status?.single == .signaled(4), "a runner that did not run keeps its override")
        file.record(caseNamed: "b", observations: [("qemu", Observation(stdout: lines(""), stderr: lines(""), status: .signaled(11)))])
        #expect(file.cases[1].expected == Expected(stdout: lines(""), stderr: lines(""), status: .signaled(11)))
    }
}
