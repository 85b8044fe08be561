import Support
import Testing

@testable import Compare
@testable import Report

/// The pieces of what students read, without running anything: grading-machine paths taken out,
/// gradebook fields, report file names, and `stdout: any` read and written back.
@Suite struct StudentReportsTests {
    @Test func theGradingMachinesPathsAreTakenOut() {
        let scrubber = PathScrubber(root: "/autograder/submission/", reference: "/autograder/source/ref")
        #expect(scrubber.clean("/autograder/submission/lab1/x.asm:3: error: parser") == "lab1/x.asm:3: error: parser")
        #expect(
            scrubber.clean("see /autograder/source/ref/x.expect:2 and /root/.cache/asmrun/ab/x.o: in function")
                == "see x.expect:2 and x.o: in function")
        #expect(scrubber.clean("(/tmp/asmrun-test-1/case/out.txt)") == "(out.txt)")
        #expect(scrubber.clean("1/2 and a/b stay") == "1/2 and a/b stay")
        #expect(PathScrubber(root: "subs/bob").clean("subs/bob/count.asm:3: error:") == "count.asm:3: error:")
    }

    @Test func gradebookFieldsAreQuotedAndNeverFormulas() {
        #expect(GradebookCSV.text("subs/alice") == "subs/alice")
        #expect(GradebookCSV.text("smith, \"j\"") == "\"smith, \"\"j\"\"\"")
        #expect(GradebookCSV.text("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(GradebookCSV.text("@sum") == "'@sum")
        #expect(GradebookCSV.text("line\nbreak") == "line\\nbreak", "control characters are escaped as on the console")
        #expect(GradebookCSV.text(" padded") == "\" padded\"")
    }

    @Test func reportFilesAreNamedAfterTheSubmissionSafely() {
        #expect(SubmissionReports.fileNames(["subs/alice", "subs/bob/"]) == ["alice.md", "bob.md"])
        #expect(SubmissionReports.fileNames(["a/alice", "b/alice"]) == ["a_alice.md", "b_alice.md"])
        #expect(SubmissionReports.fileNames(["x/a b", "x/a_b"]) == ["x_a_b.md", "x_a_b-2.md"])
        #expect(SubmissionReports.fileNames(["../..", "/"]) == ["submission.md", "submission-2.md"])
        #expect(SubmissionReports.escaped("a|b_*`") == "a\\|b\\_\\*\\`")
    }

    @Test func anyOutputIsReadAndWrittenBack() throws {
        let text = "[case tests]\nstdout: any\nstatus: exit 0\nstderr @qemu: any\n"
        let file = try ExpectationFile(parsing: text, path: "t.expect")
        let testCase = try #require(file.cases.first)
        #expect(testCase.expected.ignoresStdout && testCase.overrides["qemu"]?.stderr == .anything)
        #expect(Pattern(TextLines.anything).matches(TextLines(Array("3 Tests 0 Failures\nOK".utf8))))
        #expect(Pattern(TextLines.anything).matches(TextLines([])))
        #expect(file.serialized().hasSuffix("\n" + text))
    }
}
