import Foundation
import Glibc
import Support
import Testing

@testable import Processes

/// asmrun's stdin in run mode, on descriptors the tests make: a pipe is relayed byte for byte
/// and kept for the repeat, a file is reopened at its offset, a terminal is never read.
@Suite struct CallerInputTests {
    /// Every byte value, in an order that is not a short period, past a pipe's 64 KiB.
    private static let binary: [UInt8] = (0..<((200 << 10) + 7)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        return (fds[0], fds[1])
    }

    /// What the program reads when `binary` is written into `upstream` and `input` relays it;
    /// `nil` if `input` does not relay.
    private static func relayBinary(from upstream: (read: Int32, write: Int32), by input: CallerInput) -> [UInt8]? {
        guard case .descriptor(let programEnd) = input.source else { return nil }
        feed(binary, to: upstream.write)
        return drain(programEnd)
    }

    /// Writes `bytes` to `fd` on a thread of its own, then closes it.
    private static func feed(_ bytes: [UInt8], to fd: Int32) {
        DetachedThread.start {
            var done = 0
            while done < bytes.count {
                let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                guard wrote > 0 else { break }
                done += wrote
            }
            close(fd)
        }
    }

    /// Everything `fd` gives until end-of-file.
    private static func drain(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { return all }
            all += buffer.prefix(got)
        }
    }

    /// A pseudo-terminal's two ends, as a shell's terminal (`TIOCSPTLCK` unlocks the peer,
    /// `TIOCGPTPEER` opens it).
    static func pseudoTerminal() throws -> (master: Int32, terminal: Int32) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0 else { throw POSIXError(.ENODEV) }
        let terminal = ioctl(master, 0x5441, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { throw POSIXError(.ENODEV) }
        return (master, terminal)
    }

    @Test func aPipeIsRelayedByteForByteAndKeptForTheRepeat() throws {
        let upstream = try Self.pipe()
        defer { close(upstream.read) }
        let input = CallerInput(descriptor: upstream.read, relaying: true)
        #expect(input.kind == .stream)
        let read = try #require(Self.relayBinary(from: upstream, by: input), "a pipe is relayed, not inherited: \(input.source)")
        #expect(read.count == Self.binary.count && read == Self.binary, "the program reads exactly the input, then end-of-file")
        input.programEnded()
        let replay = input.replay()
        let same = replay.source == .bytes(Self.binary)
        #expect(same, "the repeat gets what was relayed")
        #expect(replay.shortfall == nil)
    }

    @Test func pastTheLimitTheInputStillFlowsButIsNotReplayed() throws {
        let upstream = try Self.pipe()
        defer { close(upstream.read) }
        let input = CallerInput(descriptor: upstream.read, relaying: true, limit: 1000)
        let read = try #require(Self.relayBinary(from: upstream, by: input), "a pipe is relayed, not inherited: \(input.source)")
        #expect(read.count == Self.binary.count && read == Self.binary, "the program still reads all of it")
        input.programEnded()
        #expect(input.replay().shortfall == .tooLarge(limit: 1000))
        #expect(input.replay().source == .empty)
    }

    @Test func withoutRelayingAPipeIsInherited() throws {
        let upstream = try Self.pipe()
        defer {
            close(upstream.read)
            close(upstream.write)
        }
        let input = CallerInput(descriptor: upstream.read, relaying: false)
        #expect(input.source == .inherit)
        #expect(input.replay().shortfall == .unavailable)
    }

    @Test func aFileIsPassedOnAndReopenedAtTheOffsetItHad() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("skip|the input\n", to: directory + "/input")
        let fd = open(directory + "/input", O_RDONLY)
        defer { close(fd) }
        var skipped = [UInt8](repeating: 0, count: 5)
        #expect(read(fd, &skipped, 5) == 5)
        let input = CallerInput(descriptor: fd, relaying: true)
        #expect(input.kind == .file(offset: 5))
        #expect(input.source == .inherit, "a file is the program's own, as with `./prog < input`")
        #expect(String(decoding: Self.drain(fd), as: UTF8.self) == "the input\n", "the program reads it to the end")
        let replay = input.replay()
        defer { replay.close() }
        guard case .descriptor(let reopened) = replay.source else {
            Issue.record("a file is reopened: \(replay.source)")
            return
        }
        #expect(String(decoding: Self.drain(reopened), as: UTF8.self) == "the input\n", "from where the program started")
        #expect(replay.shortfall == nil)
    }

    @Test func aTerminalIsInheritedAndNeverRead() throws {
        let (master, terminal) = try Self.pseudoTerminal()
        defer {
            close(master)
            close(terminal)
        }
        #expect(write(master, "typed ahead\n", 12) == 12)
        let input = CallerInput(descriptor: terminal, relaying: true)
        #expect(input.kind == .terminal)
        #expect(input.source == .inherit)
        #expect(input.replay().source == .empty)
        #expect(input.replay().shortfall == .typed)
        var line = [UInt8](repeating: 0, count: 64)
        let got = read(terminal, &line, line.count)
        #expect(String(decoding: line.prefix(max(0, got)), as: UTF8.self) == "typed ahead\n", "what was typed is still there")
    }

    @Test func socketsAreRelayedAndClosedOrWriteOnlyInputIsClosed() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        #expect(CallerInput.kind(of: pair[0]) == .stream)
        close(pair[0])
        #expect(CallerInput.kind(of: pair[0]) == .closed)
        let upstream = try Self.pipe()
        defer {
            close(upstream.read)
            close(upstream.write)
        }
        #expect(CallerInput.kind(of: upstream.write) == .closed, "not open for reading")
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        #expect(CallerInput.kind(of: null) == .file(offset: 0), "a device other than a terminal is reopened")
    }
}
