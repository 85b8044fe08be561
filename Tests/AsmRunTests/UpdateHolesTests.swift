import Foundation
import Support
import Testing

/// `--update` runs a new or changed case again and records what differs between runs as holes
/// (issue 33, item 2): the time-stamp counter's expectation passes the next runs.
@Suite(.tags(.integration), .needsTools)
struct UpdateHolesTests {
    /// A folder with `asm/tsc.asm` and the library it includes.
    private func copyOfTsc() throws -> String {
        let directory = try Fixture.temporaryDirectory()
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/lib", toPath: directory + "/lib")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/tsc.asm", toPath: directory + "/tsc.asm")
        return directory
    }

    @Test(arguments: [[:], ["ASMRUN_HOST_ARCH": "aarch64"]])
    func theTimeStampCounterIsRecordedAsAHole(environment: [String: String]) throws {
        let directory = try copyOfTsc()
        defer { Files.removeTree(directory) }
        let runner = environment.isEmpty ? Fixture.runner : "qemu"
        let update = try Fixture.asmrun(["test", "tsc.asm", "--update", "--runner", runner], in: directory, environment: environment)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        #expect(
            update.stdout.contains("PASS  tsc.asm:default [\(runner)] (")
                && update.stdout.contains(" — recorded, 1 line with a hole: it differs between runs\n"), "\(update.stdout)")
        let expect = try String(contentsOfFile: directory + "/tsc.expect", encoding: .utf8)
        #expect(expect.contains("stdout:\n| tsc: [..]\nstatus: exit 0\n"), "\(expect)")
        #expect(!update.stdout.contains("warning:"), "the label is kept: no whole-line hole")
        for _ in 0..<2 {
            let next = try Fixture.asmrun(["test", "tsc.asm", "--runner", runner], in: directory, environment: environment)
            #expect(next.status == .exited(0), "\(next.stdout)")
        }
    }

    @Test func aWholeLineHoleIsNamedInTheSummary() throws {
        let directory = try copyOfTsc()
        defer { Files.removeTree(directory) }
        let bare = try String(contentsOfFile: directory + "/tsc.asm", encoding: .utf8).replacing(
            "        mov     edx, 5\n        call    print_str\n", with: "")
        try Fixture.write(bare, to: directory + "/bare.asm")
        let update = try Fixture.asmrun(["test", "bare.asm", "--update", "--runner", Fixture.runner], in: directory)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        #expect(
            update.stdout.contains(
                "warning: bare.asm:default [\(Fixture.runner)]: recorded stdout line 1 as a hole and nothing else, which any line passes; check that is meant\ntime: "
            ), "\(update.stdout)")
        #expect(try String(contentsOfFile: directory + "/bare.expect", encoding: .utf8).contains("stdout:\n| [..]\n"))
    }

    @Test func aMarkdownBlockGetsItsHoleInItsOutputBlock() throws {
        let directory = try copyOfTsc()
        defer { Files.removeTree(directory) }
        let code = try String(contentsOfFile: directory + "/tsc.asm", encoding: .utf8)
        try Fixture.write("# The counter\n\n```nasm\n\(code)```\n", to: directory + "/doc.md")
        let update = try Fixture.asmrun(["test", "doc.md", "--update", "--runner", Fixture.runner], in: directory)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        #expect(try String(contentsOfFile: directory + "/doc.md", encoding: .utf8).hasSuffix("```\n\n```output\ntsc: [..]\n```\n"))
        let next = try Fixture.asmrun(["test", "doc.md", "--runner", Fixture.runner], in: directory)
        #expect(next.status == .exited(0), "\(next.stdout)")
    }
}
