import Foundation
import FoundationXML
import Glibc
import Processes
import Source
import Support
import Testing

@testable import Build

/// Hostile names, sizes and paths given to the real tools: asmrun answers with one clear line and
/// never lets a name forge output, a build fill the disk, or `-o` replace an input.
@Suite(.tags(.integration), .needsTools)
struct BadInputTests {

    @Test func trappingNumbersAreOneLineErrorsFromTheBinary() throws {
        let directory = try Fixture.folder(["big.asm": "; asmrun: limit memory 99999999999999G\n" + Fixture.corpusHello])
        defer { Files.removeTree(directory) }
        let run = try Fixture.asmrun([directory + "/big.asm"])
        #expect(run.status == .exited(125))
        #expect(
            run.stderr
                == "asmrun: \(directory)/big.asm:1: `limit memory 99999999999999G` is out of range: a size from 1 to 1024G; fix the `; asmrun:` line\n"
        )
        let test = try Fixture.asmrun(["test", directory, "--output-limit", "99999999999999G"])
        #expect(test.status == .exited(2))
        #expect(test.stderr.hasPrefix("asmrun: --output-limit takes a size from 1 to 256M"))
    }

    @Test func sourcesWhoseNamesStartWithADashBuildAndRecord() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        for name in ["-E.asm", "-v.asm"] { try Fixture.write(Fixture.corpusHello, to: directory + "/" + name) }
        let update = try Fixture.asmrun(["test", ".", "--update", "--runner", "qemu"], in: directory)
        #expect(update.status == .exited(0), "\(update.stdout)\(update.stderr)")
        for name in ["-E", "-v"] {
            let recorded = try String(contentsOfFile: directory + "/\(name).expect", encoding: .utf8)
            #expect(recorded.hasSuffix("stdout:\n| Hello, World!\nstatus: exit 0\n"))
        }
        let run = try Fixture.asmrun(["./-E.asm"], in: directory)
        #expect(run.stdout == "Hello, World!\n" && run.status == .exited(0))
        let bare = try Fixture.asmrun(["-E.asm"], in: directory)
        #expect(bare.stderr == "asmrun: unknown option -E.asm; to name a file that starts with `-`, write ./-E.asm\n")
    }

    @Test func controlCharactersInNamesCannotForgeOutput() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let evil = directory + "/x\nPASS  everything.asm\n::warning::forged"
        try Fixture.write(Fixture.corpusHello, to: evil + ".asm")
        try Fixture.write("[case \u{1b}[2Jclear]\nstatus: exit 3\n", to: evil + ".expect")
        let result = Fixture.test(
            [directory, "--runner", "qemu", "--junit", directory + "/r.xml"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        let everything = result.output + result.errors
        #expect(!everything.contains("\u{1b}"), "no escape byte reaches the terminal")
        let lines = everything.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("PASS") }, "no forged PASS line: \(everything)")
        // What GitHub's runner obeys: the name's `::` puts the case's text between stop-commands.
        let obeyed = ReportAttackTests.workflowCommands(in: everything)
        // One failure: annotated at the .expect and once more on the source, no forged ::warning.
        #expect(obeyed.count == 2 && obeyed.allSatisfy { $0.hasPrefix("::error") }, "two annotations, no forged ::warning: \(everything)")
        #expect(
            obeyed.contains { $0.hasPrefix("::error file=\(directory)/x\\nPASS  everything.asm\\n%3A%3Awarning%3A%3Aforged.asm,line=1,") })
        #expect(everything.contains("FAIL  \(directory)/x\\nPASS  everything.asm\\n::warning::forged.asm:\\e[2Jclear [qemu]"))
        let annotation = try #require(lines.first { $0.hasPrefix("::error") })
        #expect(annotation.hasPrefix("::error file=\(directory)/x\\nPASS  everything.asm\\n%3A%3Awarning%3A%3Aforged.expect,line=1,title="))
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: directory + "/r.xml"))
        let testcase = try #require(try xml.nodes(forXPath: "//testcase").first as? XMLElement)
        #expect(testcase.attribute(forName: "name")?.stringValue == "\\e[2Jclear [qemu]")
    }

    @Test func caseArgumentsTooLargeForTheKernelSaySo() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Fixture.corpusHello, to: directory + "/hello.asm")
        let big = String(repeating: "x", count: 200_000)
        try Fixture.write("[case big]\nargs: small \(big)\nstatus: exit 0\n", to: directory + "/hello.expect")
        let result = Fixture.test([directory, "--runner", "qemu"])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "ERROR \(directory)/hello.asm:big [qemu]: \(directory)/hello.expect:2: case `big`: argument 2 (`xxxxxxxxxxxxxxxx…`) is 200000 bytes"
            ))
        #expect(!result.output.contains("check that it exists and is executable"))
    }

    @Test func dashOThatNamesAnInputIsRefused() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("%include \"inc/data.inc\"\n" + Fixture.corpusHello, to: directory + "/hello.asm")
        try Fixture.write("; nothing but a comment\n", to: directory + "/inc/data.inc")
        symlink("hello.asm", directory + "/alias.asm")
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/hello.asm"))
        for output in ["hello.asm", "./hello.asm", directory + "/hello.asm", "alias.asm"] {
            let result = try Fixture.asmrun(["hello.asm", "-o", output], in: directory)
            #expect(result.status == .exited(125), "-o \(output)")
            #expect(
                result.stderr
                    == "asmrun: -o \(output) names the program's source; the executable would replace it; choose another path, such as -o hello\n"
            )
        }
        let include = try Fixture.asmrun(["hello.asm", "-o", "inc/data.inc"], in: directory)
        #expect(include.status == .exited(125))
        #expect(include.stderr.contains("names a file the program includes"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/hello.asm")) == before, "the source is untouched")
        #expect(try String(contentsOfFile: directory + "/inc/data.inc", encoding: .utf8) == "; nothing but a comment\n")
    }

    /// A report's path, like `-o`, may not name a file the run reads, nor another report's.
    @Test func aReportThatNamesAnInputIsRefused() throws {
        let directory = try Fixture.folder([
            "hello.asm": "%include \"data.inc\"\n" + Fixture.corpusHello, "data.inc": "; a comment\n",
            "hello.expect": "[case default]\nstdout:\n| Hello, World!\n", "hello.files/in.txt": "input\n",
        ])
        defer { Files.removeTree(directory) }
        symlink("hello.asm", directory + "/latest.json")
        let read = { try ["hello.asm", "data.inc", "hello.expect", "hello.files/in.txt"].map { try Files.read(directory + "/" + $0) } }
        let contents = { (try Files.list(directory).sorted(), try read()) }
        let before = try contents()
        let refusals = [
            (["--json", "hello.asm"], "--json hello.asm names \(directory)/hello.asm, which the run reads"),
            (["--csv", "./hello.expect"], "--csv ./hello.expect names \(directory)/hello.expect, which the run reads"),
            (["--junit", "data.inc"], "--junit data.inc names \(directory)/data.inc, which the run reads"),
            (["--json", "r.json", "--gradescope", "./r.json"], "--gradescope ./r.json names the file --json writes too"),
            (["--json", "latest.json"], "--json latest.json names \(directory)/hello.asm, which the run reads"),
            (["--json", "hello.files/in.txt"], "--json hello.files/in.txt names \(directory)/hello.files, which the run reads"),
        ]
        for (options, message) in refusals {
            let result = try Fixture.asmrun(["test", "."] + options + ["--runner", Fixture.runner], in: directory)
            #expect(result.status == .exited(2), "\(options)")
            #expect(result.stderr.contains("asmrun: " + message), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
        }
        let trace = try Fixture.asmrun(["trace", "hello.asm", "--json", "data.inc", "--runner", Fixture.runner], in: directory)
        #expect(trace.status == .exited(125))
        #expect(trace.stderr.contains("asmrun: --json data.inc names a file the program includes"), "\(trace.stderr)")
        #expect(try contents() == before, "no file was replaced or added")
    }

    /// A name that is not UTF-8 (Latin-1 from a zip made on Windows): named byte for byte with the
    /// fix when given, one problem line when found in a folder, never a name no file has.
    @Test func aNameThatIsNotUTF8IsSaidWithTheFix() throws {
        let directory = try Fixture.folder(["subs/bob/hello.asm": Fixture.corpusHello])
        defer { Files.removeTree(directory) }
        let latin1: [UInt8] = Array((directory + "/subs/").utf8) + [0x62, 0xE9, 0x61]  // "béa" in Latin-1
        #expect(
            (latin1 + [0]).withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }
                == 0)
        let inside: [UInt8] = Array((directory + "/subs/bob/").utf8) + [0xDC, 0x62, 0x75, 0x6E, 0x67]
        #expect(
            (inside + [0]).withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }
                == 0)
        var options = LaunchOptions()
        options.timeout = 60
        func shell(_ script: String) throws -> (status: Termination, output: String) {
            let result = try PosixLauncher(path: Fixture.environment["PATH"]).run(
                Command(
                    "/bin/sh", ["-c", script + " 2>&1", Fixture.binary], environment: Fixture.environment, workingDirectory: directory),
                options: options)
            return (result.termination, String(decoding: result.stdout, as: UTF8.self))
        }
        let given = try shell("\"$0\" test subs/bob \"$(printf 'subs/b\\351a')\" --runner \(Fixture.runner)")
        #expect(given.status == .exited(2), "\(given)")
        #expect(
            given.output.contains("asmrun: subs/b\\xe9a is not UTF-8, and asmrun reads names as UTF-8; rename it in UTF-8, e.g. convmv"),
            "\(given)")
        let single = try shell("\"$0\" \"$(printf 'b\\351a.asm')\"")
        #expect(single.status == .exited(125), "\(single)")
        let found = try shell("\"$0\" test subs/bob --runner \(Fixture.runner)")
        #expect(
            found.output.contains(
                "asmrun: subs/bob/\u{FFFD}bung: has a name that is not UTF-8 (shown with \u{FFFD}), which asmrun cannot open; rename it"),
            "\(found)")
        #expect(found.output.contains("subs/bob/hello.asm:default"), "the rest is tested: \(found)")
    }

    @Test func dashOThatNamesACHeaderIsRefused() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/leap", toPath: directory + "/leap")
        let header = directory + "/leap/vendor/check.h"
        let before = try Data(contentsOf: URL(fileURLWithPath: header))
        // Cold and warm (the header list then comes from the cache), and without the cache.
        for flags in [["--cache-dir", directory + "/cache"], ["--cache-dir", directory + "/cache"], ["--no-cache"]] {
            let result = try Fixture.asmrun(["leap", "-o", "leap/vendor/check.h"] + flags, in: directory)
            #expect(result.status == .exited(125), "\(flags)")
            #expect(result.stderr.contains("-o leap/vendor/check.h names a file the program includes"), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: header)) == before, "the header is untouched")
        }
    }

    @Test func theBuildCannotWriteAHugeObject() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        // A sparse file costs nothing to make; nasm copies it into the object at disk speed.
        let blob = directory + "/blob.bin"
        #expect(FileManager.default.createFile(atPath: blob, contents: nil))
        #expect(truncate(blob, 80 << 20) == 0)
        try Fixture.write("incbin \"blob.bin\"\nglobal _start\n_start: ret\n", to: directory + "/big.asm")
        let program = try Program.load(file: directory + "/big.asm")
        let toolchain = Toolchain(host: Host(environment: [:]), locator: Fixture.locator)
        let plan = try BuildPlan(program: program, toolchain: toolchain, directory: directory, prefix: "t-")
        let step = try #require(plan.compiles.first)
        let start = monotonicSeconds()
        let failure = #expect(throws: BuildFailure.self) {
            try Builder(launcher: PosixLauncher(path: Fixture.environment["PATH"])).run(
                step.command, stage: .assemble, source: step.source, hint: { _ in nil })
        }
        #expect(failure?.output.contains("ended with signal SIGXFSZ") == true, "\(failure?.output ?? "")")
        #expect(failure?.hint?.hasPrefix("the build wrote more than the 64 MiB a build may write") == true)
        #expect(monotonicSeconds() - start < 60)
        var info = stat()
        #expect(stat(step.object, &info) != 0 || info.st_size <= 64 << 20, "nothing past the limit was written")
    }
}
