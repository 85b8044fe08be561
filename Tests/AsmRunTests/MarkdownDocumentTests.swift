import Compare
import Testing

/// How a Markdown file is read for doc-tests and how its output blocks are rewritten, without
/// running anything (issue 33, item 1).
@Suite struct MarkdownDocumentTests {
    private func document(_ text: String) -> MarkdownDocument { MarkdownDocument(Array(text.utf8)) }

    static let tutorial = """
        # Title

        ```nasm
        global _start
        ```

        Prints:

        ```output
        one
        ```

        <!-- asmrun: status: exit 3 -->

        ~~~asm ignore
        nop
        ~~~

        ````markdown
        ```nasm
        not a program: an example of Markdown
        ```
        ````

        <!-- asmrun:
        args: a "b c"
        stdin:
        | in
        -->
        ```nasm
        global _start
        ```
        ```output
        two
        ```
        ```output
        not its output: the first one after a block is
        ```

        """

    @Test func programBlocksTheirOutputAndTheirComments() {
        let doc = document(Self.tutorial)
        #expect(doc.programs.map(\.code.line) == [3, 15, 30])
        #expect(doc.programs.map(\.ignored) == [false, true, false])
        #expect(doc.programs[0].output?.line == 9)
        #expect(doc.output(of: doc.programs[0]) == [Array("one".utf8)])
        #expect(doc.programs[0].comment.isEmpty)
        #expect(doc.programs[1].comment.map(\.text) == ["status: exit 3"], "blank lines may stand between")
        #expect(doc.programs[1].comment.map(\.line) == [13])
        #expect(doc.programs[2].comment.map(\.text) == ["args: a \"b c\"", "stdin:", "| in"])
        #expect(doc.programs[2].comment.map(\.line) == [26, 27, 28])
        #expect(doc.output(of: doc.programs[2]) == [Array("two".utf8)])
        #expect(doc.code(of: doc.programs[2]) == ["global _start"])
        #expect(doc.strayComments.isEmpty)
    }

    /// A fence never closed runs to the end of the document (CommonMark): the last program of a
    /// chapter whose closing fence was lost is still a program, not an empty fragment.
    @Test func aBlockNeverClosedRunsToTheEnd() {
        let doc = document("```nasm\nnop\n```\n\n```nasm\nglobal _start\n_start:\n    ud2\n")
        #expect(doc.programs.count == 2)
        #expect(doc.code(of: doc.programs[1]).filter { !$0.isEmpty } == ["global _start", "_start:", "    ud2"])
    }

    @Test func aCommentNoBlockFollowsIsStray() {
        let doc = document("<!-- asmrun: status: exit 1 -->\n\ntext between\n```nasm\nnop\n```\n<!-- asmrun: args: x -->\n")
        #expect(doc.strayComments == [1, 7])
        #expect(doc.programs.count == 1 && doc.programs[0].comment.isEmpty)
    }

    @Test func rewritingAnOutputBlockKeepsEveryOtherByte() throws {
        let doc = document(Self.tutorial)
        let rewritten = try #require(doc.replacingOutput(of: doc.programs[0], with: ["ONE", "more"]))
        #expect(
            String(decoding: rewritten, as: UTF8.self) == Self.tutorial.replacing("```output\none\n```", with: "```output\nONE\nmore\n```"))
    }

    @Test func aBlockWithoutOutputGetsOneAfterIt() throws {
        let text = "intro\r\n```nasm\r\nnop\r\n```\r\nafter\r\n"
        let doc = document(text)
        let rewritten = try #require(doc.replacingOutput(of: doc.programs[0], with: ["hi"]))
        #expect(String(decoding: rewritten, as: UTF8.self) == "intro\r\n```nasm\r\nnop\r\n```\r\n\r\n```output\r\nhi\r\n```\r\nafter\r\n")
        let last = document("```nasm\nnop\n```")
        let appended = try #require(last.replacingOutput(of: last.programs[0], with: ["x"]))
        #expect(String(decoding: appended, as: UTF8.self) == "```nasm\nnop\n```\n\n```output\nx\n```\n")
    }

    @Test func outputThatWouldCloseTheFenceGetsALongerOne() throws {
        let doc = document("```nasm\nnop\n```\n```output\nold\n```\ntail\n")
        let rewritten = try #require(doc.replacingOutput(of: doc.programs[0], with: ["```", "x"]))
        #expect(String(decoding: rewritten, as: UTF8.self) == "```nasm\nnop\n```\n````output\n```\nx\n````\ntail\n")
        #expect(document("```nasm\nnop\n").replacingOutput(of: document("```nasm\nnop\n").programs[0], with: ["x"]) == nil)
    }
}
