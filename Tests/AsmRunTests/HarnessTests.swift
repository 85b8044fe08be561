import Compare
import Foundation
import FoundationXML
import Glibc
import Support
import Testing

/// `asmrun test` over real programs: expectations, diffs, update, runners, reports.
@Suite(.tags(.integration), .needsTools)
struct HarnessTests {
    private static let hello = """
        section .data
        msg: db "Hello, World!", 10
        section .text
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel msg]
            mov edx, 14
            syscall
            mov eax, 60
            xor edi, edi
            syscall

        """

    /// A suite folder with one hello program and the given expectation text (nil: none).
    private func suite(expect: String?, source: String = Self.hello) throws -> String {
        let directory = try Fixture.temporaryDirectory()
        try Fixture.write(source, to: directory + "/hello.asm")
        if let expect { try Fixture.write(expect, to: directory + "/hello.expect") }
        return directory
    }

    private var allRunners: String { Fixture.nativeHost ? "native,qemu" : "qemu" }

    @Test func theSampleCorpusPasses() throws {
        let result = Fixture.test([Fixture.corpus, "--runner", "all", "--no-cache"])
        #expect(result.status == 0, "\(result.output)")
        let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix(" passed, 0 failed, 1 skipped"))
        #expect(!result.output.contains("lib/io.asm"), "include-only helpers are not programs")
        #expect(!result.errors.contains("skipped, not programs"), "a C file named with `with` is a part: \(result.errors)")
    }

    @Test func aWrongExpectationFailsWithAUnifiedDiff() throws {
        let directory = try suite(expect: "[case default]\nstdout:\n| Hello, world!\nstatus: exit 0\n")
        defer { Files.removeTree(directory) }
        let result = Fixture.test([directory, "--runner", allRunners])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "FAIL  \(directory)/hello.asm:default [\(allRunners.replacingOccurrences(of: ",", with: ", "))]: stdout differs"))
        #expect(
            result.output.contains(
                """
                    stdout:
                    --- expected
                    +++ actual
                    @@ -1 +1 @@
                    -Hello, world!
                    +Hello, World!

                """))
        #expect(result.output.hasSuffix(Fixture.nativeHost ? "0 passed, 2 failed\n" : "0 passed, 1 failed\n"))
    }

    @Test func updateRecordsThenPassesThenCatchesAChangedSource() throws {
        let directory = try suite(expect: nil)
        defer { Files.removeTree(directory) }
        let missing = Fixture.test([directory])
        #expect(missing.status == 1)
        #expect(missing.output.contains("no expectations recorded yet; run `asmrun test --update`"))
        let update = Fixture.test([directory, "--update", "--runner", allRunners])
        #expect(update.status == 0)
        #expect(update.errors.contains("updated \(directory)/hello.expect"))
        let recorded = try String(contentsOfFile: directory + "/hello.expect", encoding: .utf8)
        #expect(recorded.hasSuffix("[case default]\nstdout:\n| Hello, World!\nstatus: exit 0\n"))
        #expect(Fixture.test([directory, "--runner", allRunners]).status == 0)
        // A second update changes nothing on disk.
        _ = Fixture.test([directory, "--update"])
        #expect(try String(contentsOfFile: directory + "/hello.expect", encoding: .utf8) == recorded)
        try Fixture.write(Self.hello.replacingOccurrences(of: "mov edi, 1\n", with: "mov edi, 2\n"), to: directory + "/hello.asm")
        let changed = Fixture.test([directory])
        #expect(changed.status == 1)
        #expect(changed.output.contains("-Hello, World!"))
        #expect(changed.output.contains("stdout, stderr differ"))
    }

    @Test func expectedSignalIsPartOfTheExpectation() throws {
        let crash = "global _start\n_start:\n    xor eax, eax\n    mov [rax], eax\n"
        let directory = try suite(expect: "[case default]\nstatus: signal SIGSEGV\n", source: crash)
        defer { Files.removeTree(directory) }
        let pass = Fixture.test([directory, "--runner", allRunners])
        #expect(pass.status == 0, "\(pass.output)")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: directory + "/hello.expect")
        let fail = Fixture.test([directory, "--runner", "qemu"])
        #expect(fail.status == 1)
        #expect(fail.output.contains("    status:\n    expected exit 0, got signal SIGSEGV\n"))
        #expect(!fail.output.contains("uncaught target signal"))
    }

    @Test func runnersThatDisagreeAreReportedAsADivergence() throws {
        let directory = try suite(expect: "[case default]\nstdout:\n| Hello, World!\nstatus: exit 0\n")
        defer { Files.removeTree(directory) }
        // A prefix runner that runs the program and alters its output.
        let runner = directory + "/alter.sh"
        try Fixture.write("#!/bin/sh\n\"$@\" | sed s/World/Mars/\n", to: runner)
        chmod(runner, 0o755)
        let result = Fixture.test([directory, "--runner", "qemu,\(runner)"])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL  \(directory)/hello.asm:default [\(runner)]: stdout differs"))
        #expect(result.output.contains("DIVERGE \(directory)/hello.asm:default: runners disagree"))
        #expect(result.output.contains("qemu and \(runner) differ:"))
        #expect(result.output.contains("    -Hello, World!\n    +Hello, Mars!\n"))
        #expect(result.output.contains("(1 divergence between runners)"))
    }

    @Test func runnerSpecificExpectationsAreNotDivergences() throws {
        let result = Fixture.test([Fixture.corpus + "/sigill.asm", "--runner", allRunners])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("DIVERGE"))
    }

    @Test func anInfiniteLoopTimesOut() throws {
        let spin = "; asmrun: timeout 0.5\nglobal _start\n_start:\n    jmp _start\n"
        let directory = try suite(expect: "[case default]\nstatus: exit 0\n", source: spin)
        defer { Files.removeTree(directory) }
        let start = monotonicSeconds()
        let result = Fixture.test([directory, "--runner", allRunners])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "TIME  \(directory)/hello.asm:default [\(allRunners.replacingOccurrences(of: ",", with: ", "))]: timed out after 0.5 s"))
        #expect(result.output.contains("timed out"))
        #expect(monotonicSeconds() - start < 10)
    }

    @Test func shardsCoverEveryCaseExactlyOnce() throws {
        let all = Fixture.test([Fixture.corpus, "--list"]).output.split(separator: "\n")
        #expect(all.count > 30)
        var seen: [Substring] = []
        for shard in 1...3 {
            let part = Fixture.test([Fixture.corpus, "--list", "--shard", "\(shard)/3"]).output.split(separator: "\n")
            #expect(!part.isEmpty)
            seen += part
        }
        #expect(seen.sorted() == all.sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func updateOfAFilteredCaseKeepsTheOthers() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/echo.asm", toPath: directory + "/echo.asm")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/echo.expect", toPath: directory + "/echo.expect")
        var text = try String(contentsOfFile: directory + "/echo.expect", encoding: .utf8)
        text = text.replacingOccurrences(of: "stdout:\n| hello\n", with: "stdout:\n| stale\n")
        try Fixture.write(text, to: directory + "/echo.expect")
        let result = Fixture.test([directory, "--update", "--filter", ":one-line$"])
        #expect(result.status == 0)
        let updated = try ExpectationFile.load(directory + "/echo.expect")
        #expect(updated?.cases.map(\.name) == ["empty", "one-line", "several-lines", "no-final-newline"])
        #expect(
            try String(contentsOfFile: directory + "/echo.expect", encoding: .utf8)
                == String(contentsOfFile: Fixture.corpus + "/echo.expect", encoding: .utf8))
    }

    @Test func missingPathsAndEmptyFiltersAreUsageErrors() throws {
        let missing = Fixture.test(["/nonexistent/asmrun-suite"])
        #expect(missing.status == 2)
        #expect(
            missing.errors == """
                asmrun: /nonexistent/asmrun-suite: does not exist; name an existing .asm file or folder
                asmrun: 1 of the paths given do not exist (named above); name existing files or folders

                """)
        let unmatched = Fixture.test([Fixture.corpus, "--filter", "no-such-case"])
        #expect(unmatched.status == 2)
        #expect(unmatched.errors.contains("no case id matches --filter no-such-case"))
    }

    @Test func filterSelectsCasesById() throws {
        let listed = Fixture.test([Fixture.corpus, "--list", "--filter", "echo.asm:(empty|one)"]).output
        #expect(
            listed.split(separator: "\n").map { $0.split(separator: " ")[0] } == [
                "\(Fixture.corpus)/echo.asm:empty", "\(Fixture.corpus)/echo.asm:one-line",
            ])
        let run = Fixture.test([Fixture.corpus, "--filter", "factorial.asm:five$", "--runner", "qemu"])
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func includeOnlyFilesAreNeverProgramsNorUpdated() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("%include \"helpers/exit.inc.asm\"\nglobal _start\n_start:\n    jmp quit\n", to: directory + "/main.asm")
        try Fixture.write("quit:\n    mov eax, 60\n    mov edi, 7\n    syscall\n", to: directory + "/helpers/exit.inc.asm")
        let result = Fixture.test([directory, "--update"])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/main.expect"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/helpers/exit.inc.expect"))
        #expect(try String(contentsOfFile: directory + "/main.expect", encoding: .utf8).contains("status: exit 7"))
    }

    @Test func badFilesAreReportedAndTheRestStillRuns() throws {
        let directory = try suite(expect: "[case default]\nstdout:\n| Hello, World!\nstatus: exit 0\n")
        defer { Files.removeTree(directory) }
        try Fixture.write("", to: directory + "/empty.asm")
        try Fixture.write("global _start\n_start: mov eax,\n", to: directory + "/syntax.asm")
        try Fixture.write(Self.hello, to: directory + "/broken_expect.asm")
        try Fixture.write("[case x]\nstatus: maybe\n", to: directory + "/broken_expect.expect")
        try FileManager.default.createSymbolicLink(atPath: directory + "/loop", withDestinationPath: directory)
        #expect(mkfifo(directory + "/fifo.asm", 0o644) == 0)
        try Fixture.write("%include \"nowhere.inc\"\nglobal _start\n_start: ret\n", to: directory + "/missing_include.asm")
        let result = Fixture.test([directory, "--runner", "qemu"])
        #expect(result.status == 1)
        #expect(result.output.contains("PASS  \(directory)/hello.asm:default [qemu]"))
        #expect(
            result.output.contains("ERROR \(directory)/empty.asm:default [qemu]: \(directory)/empty.asm: is empty; write a program into it")
        )
        #expect(result.output.contains("ERROR \(directory)/syntax.asm:default [qemu]: assembly failed"))
        #expect(result.output.contains("\n\(directory)/syntax.asm:2: error:"), "nasm's lines stay unindented")
        #expect(
            result.output.contains(
                "ERROR \(directory)/broken_expect.asm:default [qemu]: \(directory)/broken_expect.expect:2: status must be"))
        #expect(result.errors.contains("symlink loop"))
        #expect(result.output.contains("ERROR \(directory)/fifo.asm:default [qemu]: \(directory)/fifo.asm: is not a regular file"))
        #expect(result.output.contains("\(directory)/missing_include.asm:1: error: unable to open include file `nowhere.inc'"))
        #expect(result.output.contains("asmrun: \(directory)/missing_include.asm: assembly failed; the include is looked up"))
        #expect(result.output.hasSuffix("1 passed, 5 failed\n"))
    }

    @Test(.enabled(if: geteuid() != 0, "root can read every file, so an unreadable one cannot be made"))
    func unreadableFileIsOneLine() throws {
        let directory = try suite(expect: nil)
        defer { Files.removeTree(directory) }
        chmod(directory + "/hello.asm", 0)
        let result = Fixture.test([directory, "--runner", "qemu"])
        #expect(result.output.contains("\(directory)/hello.asm: cannot be read (permission denied); check its permissions"))
    }

    @Test func junitAndJsonReportsParseBack() throws {
        let directory = try suite(expect: "[case default]\nstdout:\n| Hello <world> & \"friends\"\nstatus: exit 0\n")
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.hello, to: directory + "/second.asm")
        try Fixture.write("[case a]\nstdout:\n| Hello, World!\nstatus: exit 0\n", to: directory + "/second.expect")
        let result = Fixture.test([directory, "--runner", "qemu", "--junit", directory + "/r.xml", "--json", directory + "/r.json"])
        #expect(result.status == 1)
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: directory + "/r.xml"))
        let root = try #require(xml.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "2")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let cases = try root.nodes(forXPath: "//testcase")
        #expect(cases.count == 2)
        let failure = try #require(try root.nodes(forXPath: "//failure").first)
        #expect(failure.stringValue?.contains("-Hello <world> & \"friends\"") == true)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as! [String: Any]
        #expect(json["schema"] as? String == "asmrun-report/2")
        #expect(json["complete"] as? Bool == true)
        let summary = json["summary"] as! [String: Any]
        #expect(summary["passed"] as? Int == 1 && summary["failed"] as? Int == 1)
        let results = json["results"] as! [[String: Any]]
        #expect(results.map { $0["status"] as? String } == ["fail", "pass"])
        #expect((results[0]["diffs"] as? [String: String])?["stdout"]?.contains("+Hello, World!") == true)
        #expect(results[0]["runner"] as? String == "qemu")
    }

    @Test func failFastStopsStartingCases() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        for index in 0..<6 {
            try Fixture.write(Self.hello, to: directory + "/p\(index).asm")
            try Fixture.write("[case default]\nstatus: exit 9\n", to: directory + "/p\(index).expect")
        }
        let result = Fixture.test([directory, "--fail-fast", "-j", "1", "--runner", "qemu", "--json", directory + "/r.json"])
        #expect(result.status == 1)
        #expect(result.output.contains("run incomplete: not every case ran"))
        #expect(result.output.hasSuffix("0 passed, 1 failed\n"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as! [String: Any]
        #expect(json["complete"] as? Bool == false)
    }

    @Test func simulatedArmHostSkipsNativeOnceAndUsesQemu() throws {
        let result = Fixture.test([Fixture.corpus, "--runner", "native,qemu"], environment: ["ASMRUN_HOST_ARCH": "aarch64"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.errors.components(separatedBy: "native runner skipped").count == 2, "said exactly once")
        #expect(!result.output.contains("[native]"))
    }
}
