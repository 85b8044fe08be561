import Foundation
import Glibc
import Processes
import Support
import Testing

@testable import Compare

/// `--update` under faults: interrupts, concurrent runs, hand edits, read-only files, programs
/// that do not build, symlinks. Nothing recorded is lost, nothing wrong is recorded.
@Suite(.tags(.integration), .needsTools)
struct UpdateSafetyTests {
    private static let stale = "[case default]\nstdout:\n| stale\nstatus: exit 9\n"

    private func read(_ path: String) throws -> String { String(decoding: try Files.read(path), as: UTF8.self) }

    /// Every `.expect` in `directory`, by name.
    private func snapshot(_ directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try Files.list(directory) where name.hasSuffix(".expect") { files[name] = try read(directory + "/" + name) }
        return files
    }

    /// Ctrl-C, SIGTERM, and Ctrl-\ (SIGQUIT), which the Swift runtime would take for a crash.
    @Test(arguments: [SIGINT, SIGTERM, SIGQUIT])
    func anInterruptedUpdateRecordsNothing(signal: Int32) throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        for name in ["a_fast", "b_fast", "slow0", "slow1"] {
            try Fixture.write(Fixture.corpusHello, to: suite + "/\(name).asm")
            try Fixture.write(Self.stale, to: suite + "/\(name).expect")
        }
        try Fixture.write(Fixture.corpusHello, to: suite + "/c_new.asm")
        let before = try snapshot(suite)
        // Cases see /tmp and /dev/shm as fresh, empty folders: the runner and its FIFO live where they can reach them.
        let visible = try Fixture.visibleDirectory()
        defer { Files.removeTree(visible) }
        let ready = try Readiness(in: visible)
        // A runner that runs fast programs and holds slow ones until the interrupt ends them.
        let runner = try ready.runner("case \"$1\" in ./slow*) echo $$ > \(ready.path); exec sleep 60;; esac\nexec \"$@\"\n")
        let run = try BackgroundAsmrun(
            ["test", suite, "--update", "--runner", runner, "-j", "2", "--no-cache", "--json", suite + "/r.json"])
        // (The pids they report are their own PID namespaces': that the interrupt ends them is
        // HostileTests' to check.)
        #expect(ready.lines(2, within: 60).count == 2, "both slow cases are running")
        kill(run.pid, signal)
        let result = run.wait()
        #expect(result.termination == .exited(130))
        #expect(try snapshot(suite) == before, "no expectation changed and none was created")
        #expect(result.stdout.contains("INTR  \(suite)/slow0.asm:default [\(runner)]: interrupted (Ctrl-C or SIGTERM) before it finished"))
        #expect(result.stdout.contains("PASS  \(suite)/a_fast.asm:default [\(runner)]"))
        #expect(result.stdout.contains("not recorded: the run was interrupted"))
        #expect(!result.stdout.contains("— recorded"))
        #expect(result.stdout.hasSuffix("3 passed, 0 failed, 2 interrupted\n"), "\(result.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: suite + "/r.json"))) as! [String: Any]
        let statuses = (json["results"] as! [[String: Any]]).map { $0["status"] as! String }
        #expect(statuses.sorted() == ["interrupted", "interrupted", "pass", "pass", "pass"])
        #expect((json["summary"] as? [String: Any])?["interrupted"] as? Int == 2)
        // Every case had started, yet the interrupt ended two of them: the run is not complete.
        #expect(json["complete"] as? Bool == false)
        #expect(result.stdout.contains("run incomplete: not every case ran: interrupted\n"), "\(result.stdout)")
    }

    @Test func concurrentFilteredUpdatesOfOneFileBothLand() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try Fixture.write(try read(Fixture.corpus + "/echo.asm"), to: suite + "/echo.asm")
        let recorded = try read(Fixture.corpus + "/echo.expect")
        let stale = recorded.replacingOccurrences(of: "stdout:\n| hello\n", with: "stdout:\n| stale\n")
            .replacingOccurrences(of: "stdout:\n| first\n", with: "stdout:\n| stale\n")
        #expect(stale != recorded)
        for round in 0..<10 {
            try Fixture.write(stale, to: suite + "/echo.expect")
            let first = try BackgroundAsmrun(["test", suite, "--update", "--filter", ":one-line$", "--no-cache"])
            let second = try BackgroundAsmrun(["test", suite, "--update", "--filter", ":several-lines$", "--no-cache"])
            #expect(first.wait().termination == .exited(0) && second.wait().termination == .exited(0))
            #expect(try read(suite + "/echo.expect") == recorded, "round \(round): both recordings are in the file")
        }
    }

    @Test func aHandEditMadeDuringTheUpdateIsKept() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try Fixture.write(Fixture.corpusHello, to: suite + "/hello.asm")
        try Fixture.write("[case a]\nstatus: exit 9\n\n[case b]\nargs: B\nstatus: exit 9\n", to: suite + "/hello.expect")
        let visible = try Fixture.visibleDirectory()
        defer { Files.removeTree(visible) }
        let ready = try Readiness(in: visible)
        let go = visible + "/go.fifo"
        #expect(mkfifo(go, 0o666) == 0)
        // Case b waits for the test to say go, so the test can edit the file while it runs.
        let runner = try ready.runner("if [ \"$2\" = B ]; then echo b > \(ready.path); read x < \(go); fi\nexec \"$@\"\n")
        let run = try BackgroundAsmrun(["test", suite, "--update", "--runner", runner, "-j", "1", "--no-cache"])
        #expect(ready.lines(1, within: 60) == ["b"])
        try Fixture.write(
            "# edited by hand\n[case a]\nstatus: exit 9\n\n[case b]\nargs: B changed\nstatus: exit 9\n\n[case c]\nargs: by hand\nstatus: exit 5\n",
            to: suite + "/hello.expect")
        let release = open(go, O_WRONLY | O_CLOEXEC)
        _ = writeAll(Array("go\n".utf8), to: release)
        close(release)
        let result = run.wait()
        #expect(result.termination == .exited(1), "case b could not be recorded")
        #expect(result.stdout.contains("ERROR \(suite)/hello.asm:b [\(runner)]: not recorded: its inputs changed in \(suite)/hello.expect"))
        let file = try #require(try ExpectationFile.load(suite + "/hello.expect"))
        #expect(file.header == ["# edited by hand"])
        #expect(file.cases.map(\.name) == ["a", "b", "c"])
        #expect(file.cases[0].expected.status == ExpectedStatus(.exited(0)), "a was recorded")
        #expect(file.cases[1].arguments == ["B", "changed"] && file.cases[1].expected.status == ExpectedStatus(.exited(9)), "b as edited")
        #expect(file.cases[2].arguments == ["by", "hand"] && file.cases[2].expected.status == ExpectedStatus(.exited(5)), "c as added")
    }

    @Test(arguments: ["file", "folder"])
    func aReadOnlyExpectationFailsTheRun(readOnly: String) throws {
        let suite = try Fixture.temporaryDirectory()
        defer {
            chmod(suite, 0o755)
            Files.removeTree(suite)
        }
        try Fixture.write(Fixture.corpusHello, to: suite + "/hello.asm")
        try Fixture.write(Self.stale, to: suite + "/hello.expect")
        chmod(readOnly == "file" ? suite + "/hello.expect" : suite, readOnly == "file" ? 0o444 : 0o555)
        let result = Fixture.test([suite, "--update", "--runner", "qemu"])
        #expect(result.status == 1)
        #expect(result.output.contains("ERROR \(suite)/hello.asm:default [qemu]: not recorded: \(suite)/hello.expect:"))
        #expect(result.output.contains(readOnly == "file" ? "is read-only" : "its folder \(suite) is read-only"))
        #expect(!result.output.contains("recorded\n") && !result.errors.contains("updated"))
        #expect(result.output.hasSuffix("0 passed, 1 failed\n"))
        #expect(try read(suite + "/hello.expect") == Self.stale)
    }

    @Test func aProgramThatDoesNotBuildGetsNoExpectationFile() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try Fixture.write("global _start\n_start: mov eax,\n", to: suite + "/broken.asm")
        let result = Fixture.test([suite, "--update", "--runner", "qemu"])
        #expect(result.status == 1)
        #expect(result.output.contains("ERROR \(suite)/broken.asm:default [qemu]: assembly failed"))
        #expect(try Files.list(suite) == ["broken.asm"])
        #expect(!result.errors.contains("updated"))
    }

    @Test func aSymlinkedExpectationIsWrittenThroughAndKeepsItsMode() throws {
        let suite = try Fixture.temporaryDirectory()
        defer { Files.removeTree(suite) }
        try Fixture.write(Fixture.corpusHello, to: suite + "/tests/hello.asm")
        // Inside the program's folder: a link out of it is refused (ReportAttackTests).
        let shared = suite + "/tests/shared/hello.expect"
        try Fixture.write(Self.stale, to: shared)
        chmod(shared, 0o664)
        #expect(symlink("shared/hello.expect", suite + "/tests/hello.expect") == 0)
        let result = Fixture.test([suite + "/tests", "--update", "--runner", "qemu"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        var info = stat()
        #expect(lstat(suite + "/tests/hello.expect", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try read(shared).hasSuffix("[case default]\nstdout:\n| Hello, World!\nstatus: exit 0\n"))
        #expect(stat(shared, &info) == 0 && info.st_mode & 0o7777 == 0o664)
    }
}

/// The built `asmrun` started in the background (test code: Foundation's Process is fine here),
/// its output going to files, so a test can signal it or run two at once.
final class BackgroundAsmrun {
    private let process = Process()
    private let output: String

    /// `wrapper` (e.g. `unshare -p -f`) is run with asmrun's path and `arguments` after its own.
    init(_ arguments: [String], environment extra: [String: String] = [:], wrapper: [String] = []) throws {
        output = try Fixture.temporaryDirectory()
        var environment = Fixture.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in extra { environment[key] = value }
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? Fixture.binary)
        process.arguments = wrapper.isEmpty ? arguments : wrapper.dropFirst() + [Fixture.binary] + arguments
        process.environment = environment
        for name in ["stdout", "stderr"] { _ = FileManager.default.createFile(atPath: output + "/" + name, contents: nil) }
        process.standardOutput = FileHandle(forWritingAtPath: output + "/stdout")
        process.standardError = FileHandle(forWritingAtPath: output + "/stderr")
        try process.run()
    }

    deinit { Files.removeTree(output) }

    var pid: pid_t { process.processIdentifier }

    /// Waits for it to end; its status, stdout and stderr.
    func wait() -> (termination: Termination, stdout: String, stderr: String) {
        process.waitUntilExit()
        let termination: Termination =
            process.terminationReason == .exit ? .exited(process.terminationStatus) : .signaled(process.terminationStatus)
        let text = { (name: String) in String(decoding: (try? Files.read(self.output + "/" + name)) ?? [], as: UTF8.self) }
        return (termination, text("stdout"), text("stderr"))
    }
}
