import Foundation
import Support
import Testing

/// `asmrun test FILE.md`: the ```nasm blocks of a Markdown file are programs, the ```output block
/// after each its stdout (issue 33, item 1). Runs the built binary natively (or under qemu) and
/// as on an ARM host.
@Suite(.tags(.integration), .needsTools)
struct DocTestTests {
    /// Prints `text` and a newline, then exits 0.
    static func hello(_ text: String) -> String {
        """
        ```nasm
        global _start
        section .data
        msg: db "\(text)", 10
        section .text
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel msg]
            mov edx, \(text.utf8.count + 1)
            syscall
            mov eax, 60
            xor edi, edi
            syscall
        ```
        """
    }

    static let argc = """
        <!-- asmrun:
        args: a "b c"
        status: exit 3
        -->
        ```asm
        global _start
        _start:
            mov rdi, [rsp]          ; argc: the program and two arguments
            mov eax, 60
            syscall
        ```
        """

    /// Line 1 is the title, the hello block's fence line 3.
    static let tutorial =
        "# A tutorial\n\n" + hello("Hello, doc!") + "\n\nIt prints:\n\n```output\nHello, doc!\n```\n\n"
        + "A fragment:\n\n```nasm\n    mov eax, 1\n```\n\n" + argc + "\n\n```nasm ignore\nnot even assembly\n```\n\n"
        + "A typo:\n\n```nasm\nglobal _start\n_start:\n    mvo eax, 60\n```\n"

    static let setups: [[String: String]] = [[:], ["ASMRUN_HOST_ARCH": "aarch64"]]

    @Test(arguments: setups) func eachBlockIsACaseAndErrorsPointIntoTheMarkdown(environment: [String: String]) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.tutorial, to: directory + "/tutorial.md")
        let runner = environment.isEmpty ? Fixture.runner : "qemu"
        let result = try Fixture.asmrun(["test", "tutorial.md", "--runner", runner], in: directory, environment: environment)
        #expect(result.status == .exited(1), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS  tutorial.md:3 [\(runner)] ("), "\(result.stdout)")
        let argcLine = Self.tutorial.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "```asm")! + 1
        #expect(result.stdout.contains("PASS  tutorial.md:\(argcLine) [\(runner)] ("), "\(result.stdout)")
        let typo = Self.tutorial.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "    mvo eax, 60")! + 1
        #expect(result.stdout.contains("\ntutorial.md:\(typo): error: parser: instruction expected\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 passed, 1 failed\n"))
        #expect(
            result.stderr.contains("note: 2 Markdown program blocks skipped: marked `ignore`, or with no entry point (-v lists them)"),
            "\(result.stderr)")
        let verbose = try Fixture.asmrun(["test", "tutorial.md", "--list", "-v"], in: directory, environment: environment)
        let fragment = Self.tutorial.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "A fragment:")! + 3
        #expect(verbose.stderr.contains("note: skipped tutorial.md:\(fragment): a program block with no entry point"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("a program block marked `ignore`"))
    }

    @Test func updateRewritesOnlyTheOutputBlocks() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let stale =
            "Before.\r\n\r\n" + Self.hello("new text") + "\n\n```output\nold text\n```\n\nBetween.\n\n" + Self.hello("no block yet")
            + "\nThe end, without a newline."
        try Fixture.write(stale, to: directory + "/doc.md")
        let failing = try Fixture.asmrun(["test", "doc.md", "--runner", Fixture.runner], in: directory)
        #expect(failing.status == .exited(1))
        #expect(failing.stdout.contains("-old text\n    +new text"), "\(failing.stdout)")
        let update = try Fixture.asmrun(["test", "doc.md", "--update", "--runner", Fixture.runner], in: directory)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        #expect(update.stderr.contains("updated doc.md\n") && !update.stderr.contains("updated doc.md\nupdated"), "\(update.stderr)")
        let expected =
            "Before.\r\n\r\n" + Self.hello("new text") + "\n\n```output\nnew text\n```\n\nBetween.\n\n" + Self.hello("no block yet")
            + "\n\n```output\nno block yet\n```\nThe end, without a newline."
        #expect(try String(contentsOfFile: directory + "/doc.md", encoding: .utf8) == expected)
        let again = try Fixture.asmrun(["test", "doc.md", "--runner", Fixture.runner], in: directory)
        #expect(again.status == .exited(0), "\(again.stdout)")
        let unchanged = try Fixture.asmrun(["test", "doc.md", "--update", "--runner", Fixture.runner], in: directory)
        #expect(!unchanged.stderr.contains("updated"), "a file whose blocks still match is not rewritten")
    }

    @Test func aStatusTheBlockDoesNotExpectIsNotRecorded() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let text = "```nasm\nglobal _start\n_start:\n    mov eax, 60\n    mov edi, 2\n    syscall\n```\n"
        try Fixture.write(text, to: directory + "/doc.md")
        let update = try Fixture.asmrun(["test", "doc.md", "--update", "--runner", Fixture.runner], in: directory)
        #expect(update.status == .exited(1))
        #expect(
            update.stdout.contains(
                "ERROR doc.md:1 [\(Fixture.runner)]: not recorded: it ended with exit 2; if it should, put `<!-- asmrun: status: exit 2 -->` just before its block"
            ), "\(update.stdout)")
        #expect(try String(contentsOfFile: directory + "/doc.md", encoding: .utf8) == text)
    }

    @Test func aMalformedCommentOrDirectiveIsAnErrorAtItsMarkdownLine() throws {
        let text =
            "x\n\n```nasm\n; asmrun: bogus thing\nglobal _start\n_start:\n    ret\n```\n\n"
            + "<!-- asmrun:\nstatus: exit 999\n-->\n```nasm\nglobal _start\n_start:\n    ret\n```\n"
        let result = try Fixture.asmrun(["test", "bad.md", "--runner", Fixture.runner], files: ["bad.md": text])
        #expect(result.status == .exited(1))
        #expect(
            result.stdout.contains("ERROR bad.md:3 [\(Fixture.runner)]: bad.md:4: unknown asmrun directive `bogus`"), "\(result.stdout)")
        #expect(
            result.stdout.contains("ERROR bad.md:13 [\(Fixture.runner)]: bad.md:11: status must be")
                && result.stdout.contains("not `exit 999`; fix the comment before the block\n"), "\(result.stdout)")
    }

    @Test func aCommentGivesStdinAndDirectives() throws {
        // Exits with the first byte of its stdin; marked an expected failure by a directive.
        let text =
            "<!-- asmrun:\nstdin:\n| *\nstatus: exit 42\n-->\n```nasm\nglobal _start\n_start:\n    xor eax, eax\n"
            + "    xor edi, edi\n    lea rsi, [rsp-8]\n    mov edx, 1\n    syscall\n    movzx edi, byte [rsp-8]\n    mov eax, 60\n    syscall\n```\n\n"
            + "<!-- asmrun: directive: xfail all the doc shows a mistake -->\n```nasm\nglobal _start\n_start:\n    mov eax, 60\n"
            + "    mov edi, 1\n    syscall\n```\n"
        let result = try Fixture.asmrun(["test", "doc.md", "--runner", Fixture.runner], files: ["doc.md": text])
        #expect(result.status == .exited(0), "\(result.stdout)")
        #expect(result.stdout.contains("PASS  doc.md:6 ["), "\(result.stdout)")
        #expect(
            result.stdout.contains("XFAIL doc.md:20 [\(Fixture.runner)]: expected failure: the doc shows a mistake"), "\(result.stdout)")
    }

    @Test func markdownWithoutProgramsInAFolderAddsNoCase() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("global _start\n_start:\n    mov eax, 60\n    xor edi, edi\n    syscall\n", to: directory + "/asm/a.asm")
        try Fixture.write("# The samples\n\n```sh\nasmrun test asm\n```\n", to: directory + "/asm/README.md")
        let listed = try Fixture.asmrun(["test", "asm", "--list"], in: directory)
        #expect(
            listed.stdout == "asm/a.asm:default [\(Fixture.nativeHost ? "native,qemu" : "qemu")]\n"
                || listed.stdout.hasPrefix("asm/a.asm:default ["))
        #expect(listed.stdout.split(separator: "\n").count == 1, "\(listed.stdout)")
        #expect(listed.stderr == "", "no note for a Markdown file without program blocks: \(listed.stderr)")
        let named = try Fixture.asmrun(["test", "asm/README.md"], in: directory)
        #expect(named.status == .exited(2))
        #expect(named.stderr.contains("asm/README.md: holds no program blocks (```nasm or ```asm)"), "\(named.stderr)")
        // The name is written on the code's `%line` line: a line break in it would be code.
        try Fixture.write(Self.hello("x"), to: directory + "/odd/a\n%include \"/etc/passwd\".md")
        let odd = try Fixture.asmrun(["test", "odd"], in: directory)
        #expect(odd.stdout.contains("has a line break in its name; rename it"), "\(odd.stdout)")
        try Fixture.write("<!-- asmrun: status: exit 1 -->\n\ntext\n", to: directory + "/stray.md")
        let stray = try Fixture.asmrun(["test", "stray.md"], in: directory)
        #expect(stray.stdout.contains("stray.md:1: an `<!-- asmrun: … -->` comment that no ```nasm block follows"), "\(stray.stdout)")
    }
}
