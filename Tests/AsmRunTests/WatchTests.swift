import Foundation
import Glibc
import Support
import Testing

/// `--watch` end to end with the built binary: a save (in place, and by writing a temporary file
/// and renaming it) starts the second run, which shows the change and runs only what it touches;
/// Ctrl-C ends the watch with 130 and no child left.
@Suite(.tags(.integration), .needsTools)
struct WatchTests {
    private static func program(printing label: String, length: Int) -> String {
        """
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel \(label)]
            mov edx, \(length)
            syscall
            mov eax, 60
            xor edi, edi
            syscall
        section .data

        """
    }

    private static func expectation(_ stdout: String) -> String {
        "[case default]\nstdout:\n| \(stdout)\nstatus: exit 0\n"
    }

    @Test func testWatchRerunsTheProgramsASaveTouches() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Fixture.hello, to: directory + "/hello.asm")
        try Fixture.write(Self.expectation("hello"), to: directory + "/hello.expect")
        try Fixture.write(Self.program(printing: "text", length: 5) + "%include \"text.inc\"\n", to: directory + "/other.asm")
        try Fixture.write("text: db \"text\", 10\n", to: directory + "/text.inc")
        try Fixture.write(Self.expectation("text"), to: directory + "/other.expect")
        let child = try WatchedChild(["test", "--watch", directory], in: directory)
        #expect(child.readWaiting(1) && child.output.contains("2 passed"), "\(child.output)")
        // In place: the source, whose program alone runs again and fails.
        var mark = child.output.endIndex
        try WatchedChild.writeInPlace(Fixture.hello.replacingOccurrences(of: "\"hello\"", with: "\"howdy\""), to: directory + "/hello.asm")
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        var rerun = child.output[mark...]
        #expect(rerun.contains("hello.asm saved: running 1 program again") && rerun.contains("+howdy"), "\(rerun)")
        #expect(!rerun.contains("other.asm") && rerun.contains("0 passed, 1 failed"), "\(rerun)")
        // By rename: the expectation, which its program's cases are judged by again.
        mark = child.output.endIndex
        try WatchedChild.writeByRename(Self.expectation("howdy"), to: directory + "/hello.expect")
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        rerun = child.output[mark...]
        #expect(rerun.contains("hello.expect saved") && rerun.contains("1 passed, 0 failed"), "\(rerun)")
        // By rename: an include, which reruns the program that includes it.
        mark = child.output.endIndex
        try WatchedChild.writeByRename("text: db \"TEXT\", 10\n", to: directory + "/text.inc")
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        rerun = child.output[mark...]
        #expect(rerun.contains("text.inc saved") && rerun.contains("+TEXT") && !rerun.contains("hello.asm"), "\(rerun)")
        // A new program in the folder is discovered and run.
        mark = child.output.endIndex
        try Fixture.write(Fixture.hello, to: directory + "/fresh.asm")
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        #expect(child.output[mark...].contains("fresh.asm"), "\(child.output[mark...])")
        #expect(child.interrupt() == 130, "\(child.output)")
    }

    /// Events lost (the watch stopped while more changes come than the kernel queues): a folder
    /// made meanwhile is watched, although the run that follows cannot start (its one program
    /// was removed), and a program saved into it is found.
    @Test func testWatchWatchesAFolderMadeWhileEventsWereLost() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Fixture.hello, to: directory + "/hello.asm")
        let limit = try #require(
            Int(try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8).trimmingWhitespace()))
        try #require(limit <= 1 << 18, "max_queued_events is \(limit): too many files to make")
        let child = try WatchedChild(["test", "--watch", directory], in: directory)
        #expect(child.readWaiting(1) && child.output.contains("watching 1 folder;"), "\(child.output)")
        var mark = child.output.endIndex
        kill(child.process.processIdentifier, SIGSTOP)
        for index in 0...(limit / 2) { close(open(directory + "/f\(index)", O_WRONLY | O_CREAT, 0o644)) }
        unlink(directory + "/hello.asm")
        #expect(mkdir(directory + "/part", 0o755) == 0)
        kill(child.process.processIdentifier, SIGCONT)
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        let lost = child.output[mark...]
        #expect(lost.contains("too many changes at once") && lost.contains("holds no programs"), "\(lost)")
        #expect(lost.contains("watching 2 folders;"), "\(lost)")
        mark = child.output.endIndex
        try Fixture.write(Fixture.hello, to: directory + "/part/fresh.asm")
        #expect(child.readWaiting(1, from: mark) && child.output[mark...].contains("fresh.asm"), "\(child.output[mark...])")
        #expect(child.interrupt() == 130, "\(child.output)")
    }

    /// A program that does `first`, prints its message (`msg`, `msglen` in `data`) and then waits
    /// for a signal (`pause`) forever: only a save or a kill can end it.
    static func waiting(_ data: String, first: String = "") -> String {
        """
        global _start
        _start:
        \(first)
            mov eax, 1
            mov edi, 1
            lea rsi, [rel msg]
            mov edx, msglen
            syscall
        again:
            mov eax, 34
            syscall
            jmp again
        section .data
        \(data)

        """
    }

    /// Natively, and under qemu as on an ARM host (the child killed is qemu).
    @Test(arguments: [false, true]) func runWatchKillsTheWaitingProgramOnASaveAndRunsTheNewOne(arm: Bool) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.waiting("%include \"text.inc\""), to: directory + "/wait.asm")
        try Fixture.write("msg: db \"first\", 10\nmsglen: equ $ - msg\n", to: directory + "/text.inc")
        let child = try WatchedChild(["--watch", "wait.asm"], in: directory, environment: arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:])
        #expect(child.read { $0.contains("first\n") }, "\(child.output)")
        // In place: the include; the program still waiting is ended, the new build runs.
        var mark = child.output.endIndex
        try WatchedChild.writeInPlace("msg: db \"second\", 10\nmsglen: equ $ - msg\n", to: directory + "/text.inc")
        #expect(child.read(from: mark) { $0.contains("second\n") }, "\(child.output)")
        #expect(child.output[mark...].contains("text.inc saved: building and running again"), "\(child.output)")
        // By rename: the source itself, which now defines its message.
        mark = child.output.endIndex
        try WatchedChild.writeByRename(Self.waiting("msg: db \"third\", 10\nmsglen: equ $ - msg"), to: directory + "/wait.asm")
        #expect(child.read(from: mark) { $0.contains("third\n") }, "\(child.output)")
        let running = child.children
        #expect(!running.isEmpty, "the program waits")
        #expect(child.interrupt() == 130, "\(child.output)")
        #expect(running.allSatisfy(Readiness.isGone), "the program was ended: \(running)")
        #expect(!child.output.contains("killed by"), "a save's kill is no crash: \(child.output)")
    }

    /// The program's own end is told between runs; input piped in is refused (only the first run
    /// could read it), a file is read again by each run.
    @Test func runWatchRefusesPipedInputAndReadsAFileAgain() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Fixture.hello, to: directory + "/hello.asm")
        let cat = try String(contentsOfFile: Fixture.corpus + "/echo.asm", encoding: .utf8)
        try Fixture.write(cat, to: directory + "/cat.asm")
        try Fixture.write("typed\n", to: directory + "/input.txt")
        let reader = try WatchedChild(["--watch", "cat.asm"], in: directory, stdin: directory + "/input.txt")
        #expect(reader.readWaiting(1) && reader.output.hasPrefix("typed\nasmrun: status 0;"), "\(reader.output)")
        let mark = reader.output.endIndex
        try WatchedChild.writeInPlace(cat + "; saved again\n", to: directory + "/cat.asm")
        #expect(reader.readWaiting(1, from: mark), "\(reader.output)")
        #expect(reader.output[mark...].hasSuffix("again\ntyped\nasmrun: status 0; " + WatchedChild.waitingTail), "\(reader.output)")
        #expect(reader.interrupt() == 130, "\(reader.output)")
        let piped = try Fixture.asmrun(["-c", "echo 5 | \"$0\" --watch hello.asm", Fixture.binary], in: directory, executable: "/bin/sh")
        #expect(piped.status == .exited(125) && piped.stderr.contains("piped input can be read only once"), "\(piped)")
        let update = try Fixture.asmrun(["test", "--watch", "--update", directory])
        #expect(update.status == .exited(2) && update.stderr.contains("--watch with --update"), "\(update)")
        let graded = try Fixture.asmrun(["test", "--watch", "--untrusted", directory])
        #expect(graded.status == .exited(2) && graded.stderr.contains("--watch does not grade"), "\(graded)")
    }

    /// A folder program whose first build fails (it calls a function no file defines yet): its
    /// folder is watched all the same, so the new file that defines the function builds and runs it.
    @Test func aFolderProgramsFolderIsWatchedBeforeItsFirstBuild() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(
            "global _start\nextern helper\n_start:\n    call helper\n    mov eax, 60\n    xor edi, edi\n    syscall\n",
            to: directory + "/prog/prog.asm")
        let child = try WatchedChild(["--watch", "prog"], in: directory)
        #expect(child.readWaiting(1) && child.output.contains("helper"), "the link fails: \(child.output)")
        let mark = child.output.endIndex
        try Fixture.write(
            """
            global helper
            helper:
                mov eax, 1
                mov edi, 1
                lea rsi, [rel msg]
                mov edx, 6
                syscall
                ret
            section .data
            msg: db "built", 10

            """, to: directory + "/prog/helper.asm")
        #expect(child.readWaiting(1, from: mark), "\(child.output)")
        #expect(
            child.output[mark...].contains("helper.asm saved") && child.output[mark...].contains("built\nasmrun: status 0;"),
            "\(child.output)")
        #expect(child.interrupt() == 130, "\(child.output)")
    }
}
