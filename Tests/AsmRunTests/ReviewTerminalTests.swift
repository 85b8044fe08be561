import Foundation
import Glibc
import Support
import Testing

/// `asmrun test --review` as a user meets it: on a pseudo-terminal, keys typed once the prompt
/// shows; refused without a terminal and with the options it cannot go with.
@Suite(.tags(.integration), .needsTools)
struct ReviewTerminalTests {
    @Test func withoutATerminalItIsRefusedInOneLine() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        try ReviewSessionTests.makeSuite(in: base)
        let before = ReviewSessionTests.contents(base)
        let run = try Fixture.asmrun(["test", ".", "--review"], in: base, stdin: "aaaaaa")
        #expect(run.status == .exited(2))
        #expect(
            run.stderr
                == "asmrun: --review asks for keys on a terminal, and standard input is not one; "
                + "run it in a terminal, or record a case with `--update --filter ID`\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing ran: \(run.stdout)")
        #expect(ReviewSessionTests.contents(base) == before)
    }

    @Test(arguments: [
        (["--update"], "--review with --update: --update records every case, --review only those you accept"),
        (["--reference", "."], "--review with --reference would record a submission's output as its expectations"),
        (["--untrusted"], "--review with --untrusted would record a submission's output as its expectations"),
        (["--list"], "--review with --list: --list runs nothing to review"),
    ])
    func optionsItCannotGoWithAreRefused(options: [String], message: String) {
        let run = Fixture.test(["asm", "--review"] + options)
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("asmrun: " + message + "; "), "\(run.errors)")
    }

    /// How a review on the terminal ends after the first case is accepted and the second skipped.
    enum Ending: String, CaseIterable, Sendable { case endOfInput, controlC, terminated }

    /// Accepts the first case on the terminal, skips the second (after an arrow key), then ends (Ctrl-D, Ctrl-C or a
    /// SIGTERM while a key is awaited): the first case's file changes as `--update --filter`
    /// writes it (not after SIGTERM, which writes nothing), nothing else does, and the terminal is
    /// left as it was (echo and lines back) whatever the ending.
    /// Natively (or under qemu) and as on an ARM host.
    @Test(arguments: Ending.allCases, [false, true])
    func onATerminalTheFirstCaseIsAcceptedAndTheSecondSkipped(ending: Ending, arm: Bool) throws {
        let host = arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:]
        let runner = arm ? "qemu" : Fixture.runner
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let (suite, twin, before) = try ReviewSessionTests.makeSuiteAndTwin(in: base)
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        var settings = termios()
        tcgetattr(terminal.slave, &settings)
        let process = try terminal.start(
            [Fixture.binary, "test", ".", "--review", "--runner", runner, "--cache-dir", base + "/cache"], in: suite,
            environment: ["PATH": Fixture.environment["PATH"] ?? "/usr/bin:/bin", "HOME": base, "NO_COLOR": "1"].merging(host) { $1 })
        var screen = try terminal.read(until: "review 1/6 doc.md:3", then: ") > ")
        #expect(screen.contains("FAIL  doc.md:3 [\(runner)]: stdout differs"), "\(screen)")
        terminal.type("a")
        screen += try terminal.read(until: "review 2/6 doc.md:", then: ") > ")
        // An arrow key is one key that is none of the review's (its `A` is not "accept all").
        terminal.type("\u{1B}[A")
        screen += try terminal.read(until: "not a key here", then: ") > ")
        terminal.type("s")
        screen += try terminal.read(until: "review 3/6 ", then: ") > ")
        switch ending {
        case .endOfInput: terminal.type("\u{4}")
        case .controlC: terminal.type("\u{3}")
        case .terminated: kill(tcgetpgrp(terminal.master), SIGTERM)  // asmrun leads the terminal's session
        }
        if ending != .terminated { screen += try terminal.read(until: "passed, ", then: "\n") }
        try terminal.waitForExit(process)
        let after = ReviewSessionTests.contents(suite)
        var now = termios()
        tcgetattr(terminal.slave, &now)
        #expect(now.c_lflag == settings.c_lflag && now.c_iflag == settings.c_iflag, "the terminal's settings are restored")
        guard ending != .terminated else {
            // setsid exits with the raw wait status of a child a signal ended: 15.
            #expect(process.terminationStatus == SIGTERM, "\(process.terminationReason) \(process.terminationStatus)")
            #expect(after == before, "SIGTERM writes nothing")
            return
        }
        #expect(process.terminationStatus == (ending == .controlC ? 130 : 1), "\(screen)")
        #expect(screen.contains("review: 1 accepted and recorded, 1 skipped, 0 rejected, 4 not reviewed"), "\(screen)")
        let update = try Fixture.asmrun(
            ["test", "doc.md", "--update", "--filter", ":3$", "--runner", runner], in: twin, environment: host)
        #expect(update.status == .exited(0), "\(update.stdout)")
        #expect(after["doc.md"] == ReviewSessionTests.contents(twin)["doc.md"] && after["doc.md"] != before["doc.md"])
        for file in ReviewSessionTests.files where file != "doc.md" { #expect(after[file] == before[file], "\(file) changed") }
    }
}

extension PseudoTerminal {
    /// Starts `arguments` in `folder` with the slave as its standard streams and controlling terminal.
    func start(_ arguments: [String], in folder: String, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixture.locator.find("setsid") ?? "/usr/bin/setsid")
        process.arguments = ["--ctty", "--wait"] + arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        (process.standardInput, process.standardOutput, process.standardError) = (handle, handle, handle)
        try process.run()
        return process
    }

    /// The screen until `marker` and then `end` have shown (read as it comes, no sleeps); throws
    /// after a minute without them.
    func read(until marker: String, then end: String) throws -> String {
        var screen: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        func shown() -> Bool {
            let text = String(decoding: screen, as: UTF8.self)
            guard let found = text.range(of: marker) else { return false }
            return text[found.upperBound...].contains(end)
        }
        while !shown() {
            guard Date() < deadline else {
                Issue.record("no \(marker) then \(end) within a minute:\n\(String(decoding: screen, as: UTF8.self))")
                throw POSIXError(.ETIMEDOUT)
            }
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 1000) >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let got = entry.revents & Int16(POLLIN) != 0 ? Glibc.read(master, &buffer, buffer.count) : 0
            if got > 0 { screen += buffer.prefix(got) }
        }
        return String(decoding: screen, as: UTF8.self)
    }

    /// Waits for `process` to end, reading what it still prints; after a minute it is killed.
    func waitForExit(_ process: Process) throws {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 4096)
            if poll(&entry, 1, 100) > 0 && entry.revents & Int16(POLLIN) != 0 { _ = Glibc.read(master, &buffer, buffer.count) }
        }
        guard !process.isRunning else {
            kill(tcgetpgrp(master), SIGKILL)
            Issue.record("the review did not end within a minute")
            throw POSIXError(.ETIMEDOUT)
        }
        process.waitUntilExit()
    }

    func type(_ keys: String) {
        _ = keys.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }
}
