import Compare
import Foundation
import Processes
import Session
import Source
import Support
import Testing

@testable import CLI
@testable import Report

/// Bad input gets one line naming the file (and line) or the option, the allowed range and the
/// fix; never a trap. Unit tests: nothing is spawned.
@Suite struct InputValidationTests {
    @Test(arguments: [
        ("limit memory 99999999999999G", "a size from 1 to 1024G"),
        ("limit output 9999999999999G", "a size from 1 to 256M"),
        ("limit output 1024G", "a size from 1 to 256M"),
        ("limit file-size 1025G", "a size from 1 to 1024G"),
        ("limit cpu 99999999999999999999", "seconds from 1 to 604800"),
        ("limit processes 0", "a count from 1 to 1048576"),
        ("timeout 1e308", "from 0.001 to 604800"),
        ("timeout inf", "from 0.001 to 604800"),
        ("timeout nan", "from 0.001 to 604800"),
        ("timeout -1", "from 0.001 to 604800"),
        ("define =x", "a definition needs a name before any `=`"),
        ("define 9lives", "not a name nasm can define"),
    ])
    func directiveNumbersAreRangeChecked(directive: String, range: String) {
        let error = #expect(throws: FileError.self) {
            try SourceFile(path: "dir/x.asm", text: "nop\n; asmrun: \(directive)\nret\n")
        }
        #expect(error?.location == FileLocation("dir/x.asm", line: 2))
        #expect(error?.problem.contains(range) == true, "\(error?.problem ?? "")")
    }

    @Test func optionNumbersAreRangeChecked() {
        let cases: [([String], String)] = [
            (["--output-limit", "99999999999999G"], "--output-limit takes a size from 1 to 256M"),
            (["--output-limit", "1024G"], "--output-limit takes a size from 1 to 256M"),
            (["--output-limit", "0"], "--output-limit takes a size from 1 to 256M"),
            (["--limit", "output=1024G"], "--limit output=1024G: `limit output 1024G` is out of range: a size from 1 to 256M"),
            (["--limit", "memory"], "--limit memory: `limit memory` needs a value"),
            (["--limit", "colour=5"], "--limit colour=5: unknown limit `colour`"),
            (["--timeout", "1e19"], "--timeout takes a number of seconds from 0.001 to 604800"),
            (["--timeout", "inf"], "--timeout takes a number of seconds from 0.001 to 604800"),
            (["-j", "99999999999999999999"], "-j takes a number of jobs from 1 to 1024"),
            (["--shard", "1/99999999999999999999"], "--shard takes K/N"),
        ]
        for (arguments, message) in cases {
            let error = #expect(throws: UsageError.self, "\(arguments)") { try TestPlan(parsing: arguments) }
            #expect(error?.problem.hasPrefix(message) == true, "\(error?.problem ?? "")")
        }
        let run = #expect(throws: UsageError.self) { try RunOptions(parsing: ["x.asm", "--timeout", "1e308"]) }
        #expect(run?.problem.hasPrefix("--timeout takes a number of seconds from 0.001 to 604800") == true)
    }

    @Test func expectationThatIsNotUTF8NamesTheFirstBadLine() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let path = directory + "/x.expect"
        let bytes = Array("[case a]\nstdout:\n| fine\n| bad ".utf8) + [0xff, 0xfe] + Array(" here\n| \u{e9}\n".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let error = #expect(throws: FileError.self) { try ExpectationFile.load(path) }
        #expect(error?.location == FileLocation(path, line: 4))
        #expect(error?.message.contains("is not UTF-8 text; write non-text bytes as `~` lines") == true)
    }

    @Test func expectationSavedWithCRLFParsesAndNamesTheRightLine() throws {
        let file = try ExpectationFile(parsing: "[case a]\r\nstdout:\r\n| hi\r\nstatus: exit 0\r\n", path: "x.expect")
        #expect(file.cases.first?.expected.stdout == TextLines(Array("hi\n".utf8)))
        let error = #expect(throws: FileError.self) { try ExpectationFile(parsing: "[case a]\r\n\r\nstatus: maybe\r\n", path: "x.expect") }
        #expect(error?.location == FileLocation("x.expect", line: 3))
    }

    @Test(arguments: ["exit 256", "exit -1", "exit 99999999999999999999", "exit 0 | exit 300"])
    func expectedExitCodesAreRangeChecked(status: String) {
        let error = #expect(throws: FileError.self) { try ExpectationFile(parsing: "[case a]\nstatus: \(status)\n", path: "x.expect") }
        #expect(error?.location == FileLocation("x.expect", line: 2))
        #expect(error?.problem.contains("`exit N` (N from 0 to 255)") == true, "\(error?.problem ?? "")")
    }

    @Test func argumentSpaceSaysWhatIsTooLarge() {
        let big = String(repeating: "x", count: 200_000)
        #expect(ArgumentSpace.problem(arguments: ["a", "b"], environment: ["A=1"]) == nil)
        #expect(
            ArgumentSpace.problem(arguments: ["small", big], environment: [])
                == "argument 2 (`xxxxxxxxxxxxxxxx…`) is 200000 bytes, more than the \(ArgumentSpace.maxStringBytes - 1) Linux takes per argument"
        )
        #expect(
            ArgumentSpace.problem(arguments: [], environment: ["BIG=" + big])?.hasPrefix(
                "environment variable BIG is 200004 bytes") == true)
        let many = Array(repeating: String(repeating: "y", count: 100_000), count: 30)
        #expect(ArgumentSpace.problem(arguments: many, environment: [])?.hasPrefix("the arguments and environment take 3000") == true)
    }

    @Test func namesAreEscapedForPrinting() {
        #expect("plain/name-1.asm".displayEscaped == "plain/name-1.asm")
        #expect("a\nPASS  b\u{1b}[2J\tc\r\u{7f}".displayEscaped == "a\\nPASS  b\\e[2J\\tc\\r\\x7f")
        #expect("x\u{202e}gpj.asm\u{85}".displayEscaped == "x\\u{202e}gpj.asm\\u{0085}")
        #expect("caf\u{e9} \u{1F600}".displayEscaped == "caf\u{e9} \u{1F600}", "printable Unicode stays")
        #expect(DisplayText.escapeLines("one\u{1b}\ntwo\r\nthree\n") == "one\\e\ntwo\\r\nthree\n")
        #expect(FileLocation("evil\nname.asm", line: 3).description == "evil\\nname.asm:3")
        let usage = UsageError("unknown option -x\nPASS  everything.asm", fix: "see `asmrun --help`")
        #expect(usage.rendered == "asmrun: unknown option -x\\nPASS  everything.asm; see `asmrun --help`")
    }

    @Test func annotationsCannotBeEndedOrForgedByAName() {
        #expect(GitHubAnnotations.escape("a,b:c%\nd", property: true) == "a%2Cb%3Ac%25%0Ad")
        #expect(GitHubAnnotations.escape("50% done\r\n::warning::x\n", property: false) == "50%25 done%0D%0A::warning::x%0A")
    }

    @Test func junitTextCannotEndAnElementOrHoldWhatXMLCannot() {
        #expect(JUnitReport.escape("<a & 'b'>\"") == "&lt;a &amp; &apos;b&apos;&gt;&quot;")
        #expect(JUnitReport.escape("tab\tLF\nCR\r") == "tab\tLF\nCR\r", "the controls XML 1.0 holds stay")
        #expect(JUnitReport.escape("\u{1b}[2J\u{0}\u{fffe}\u{ffff}é") == "\\x1b[2J\\x00\\xfffe\\xffffé")
    }

    @Test func theStepSummaryEscapesNames() {
        #expect(StepSummary.cell("b.asm:\u{1b}[2Jclear") == "b.asm:\\\\e\\[2Jclear", "shown as b.asm:\\e[2Jclear")
        #expect(StepSummary.cell("a\nPASS | x\r") == "a\\\\nPASS \\| x\\\\r")
    }

    @Test func aFileNamedLikeAnOptionGetsTheDotSlashFix() throws {
        let usage = #expect(throws: UsageError.self) { try RunOptions(parsing: ["-E.asm"]) }
        #expect(usage?.message == "unknown option -E.asm; to name a file that starts with `-`, write ./-E.asm")
    }
}
