import Foundation
import Glibc
import Support

/// `asmrun … --watch` started as a child, its standard output and error on one pipe read as they
/// come: a test reads until the text it expects (never sleeping), edits a file, reads on, and
/// interrupts it. Every wait has one overall deadline, which fails the test.
final class WatchedChild {
    let process = Process()
    private let pipe = Pipe()
    private let deadline: Double
    /// Everything read so far.
    private(set) var output = ""
    private var ended = false
    private let exited = DispatchSemaphore(value: 0)

    init(
        _ arguments: [String], in directory: String, stdin: String? = nil, environment extra: [String: String] = [:],
        seconds: Double = 120
    ) throws {
        deadline = monotonicSeconds() + seconds
        var environment = Fixture.environment.merging(extra) { $1 }
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        process.executableURL = URL(fileURLWithPath: Fixture.binary)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Reads until `done` holds for what was read after `offset`; false at the deadline or when
    /// the child ended first.
    func read(from offset: String.Index? = nil, until done: (Substring) -> Bool) -> Bool {
        let fd = pipe.fileHandleForReading.fileDescriptor
        while !done(output[(offset ?? output.startIndex)...]) {
            let left = deadline - monotonicSeconds()
            guard left > 0, !ended else { return false }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let got = Glibc.read(fd, &buffer, buffer.count)
            if got <= 0 { ended = true } else { output += String(decoding: buffer[..<got], as: UTF8.self) }
        }
        return true
    }

    /// What is left in the pipe.
    private func drain() {
        let fd = pipe.fileHandleForReading.fileDescriptor
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&entry, 1, 0) > 0 {
            let got = Glibc.read(fd, &buffer, buffer.count)
            guard got > 0 else { return }
            output += String(decoding: buffer[..<got], as: UTF8.self)
        }
    }

    /// The end of the line saying the watch waits (after its status).
    static let waitingTail = "watching 1 folder; save a file to run again, Ctrl-C to stop\n"

    /// Reads until `count` lines saying the watch waits have come (after `offset`).
    func readWaiting(_ count: Int, from offset: String.Index? = nil) -> Bool {
        read(from: offset) { $0.components(separatedBy: "save a file to run again").count > count }
    }

    /// Ctrl-C, then everything it prints until it exits; its exit status (nil: still running at
    /// the deadline, then killed).
    func interrupt() -> Int32? {
        kill(process.processIdentifier, SIGINT)
        // Not the pipe's end: a program it ran may hold it open after a failed ending.
        guard exited.wait(timeout: .now() + max(0, deadline - monotonicSeconds())) == .success else { return nil }
        drain()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// The children asmrun has now (the program it runs, or qemu running it).
    var children: [pid_t] { Fixture.liveChildren(of: process.processIdentifier) }

    /// Writes `text` into the file as it is (no new file: an editor saving in place).
    static func writeInPlace(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Writes a temporary file beside `path` and renames it over `path` (vim, VS Code, `sed -i`).
    static func writeByRename(_ text: String, to path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.watch-save.tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw POSIXError(.EIO) }
    }
}
