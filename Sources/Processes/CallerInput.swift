import CAsmRunSpawn
import Glibc
import Support
import Synchronization

/// asmrun's own standard input in run mode, given to the program as `./prog` in the shell would
/// get it, and kept so that a crash can be repeated under the debugger with the same input. A
/// file (or a device other than a terminal) is passed on unchanged and reopened for the repeat
/// at the offset it had; a pipe or socket is relayed through a pipe of asmrun's (the program
/// still reads a pipe: partial reads, end-of-file) with a copy of at most `limit` bytes; a
/// terminal is passed on and never read by asmrun (what is typed ahead belongs to the shell once
/// the program ends), so it cannot be replayed.
package final class CallerInput: Sendable {
    /// What asmrun's standard input is.
    package enum Kind: Sendable, Equatable {
        case terminal
        /// A regular file or a device other than a terminal, at this offset (`nil`: it has none).
        case file(offset: Int64?)
        /// A pipe or a socket.
        case stream
        /// Closed, or not open for reading.
        case closed
    }

    /// Why the repeat does not get the input the program got.
    package enum Shortfall: Sendable, Equatable {
        /// It was typed at a terminal.
        case typed
        /// More than `limit` bytes were piped in.
        case tooLarge(limit: Int)
        /// It was closed (the repeat's is empty).
        case closed
        /// It could not be reopened or relayed (the repeat's is empty).
        case unavailable
    }

    /// The stdin of the repeat under the debugger.
    package struct Replay: Sendable {
        package var source: InputSource
        /// Why it is not the program's input, when it is not.
        package var shortfall: Shortfall?
        /// A descriptor asmrun opened for it.
        fileprivate var opened: Int32 = -1

        /// Closes what was opened for the repeat, once it ran.
        package func close() {
            if opened >= 0 { Glibc.close(opened) }
        }
    }

    /// The bytes a relay keeps for a repeat, at most.
    static let defaultLimit = 16 << 20

    package let kind: Kind
    /// The program's stdin: asmrun's own, or the read end of the relay's pipe.
    package let source: InputSource
    private let descriptor: Int32
    private let relay: Relay?

    /// Looks at `descriptor` (asmrun's stdin) and, for a pipe or socket when `relaying`, starts
    /// relaying it on a thread of its own, which never delays asmrun's exit.
    package init(descriptor: Int32 = 0, relaying: Bool, limit: Int = defaultLimit) {
        self.descriptor = descriptor
        kind = Self.kind(of: descriptor)
        relay = kind == .stream && relaying ? Relay.start(from: descriptor, limit: limit) : nil
        source = relay.map { .descriptor($0.programEnd) } ?? .inherit
    }

    /// Called once the program ended: asmrun's copy of the relay pipe's read end is closed, so
    /// the relay stops at its next write instead of waiting for room in the pipe.
    package func programEnded() {
        relay?.closeProgramEnd()
    }

    /// The stdin for repeating the run: the same input where it can be had again.
    package func replay() -> Replay {
        switch kind {
        case .terminal: return Replay(source: .empty, shortfall: .typed)
        case .closed: return Replay(source: .empty, shortfall: .closed)
        case .file(let offset):
            let reopened = open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
            guard reopened >= 0 else { return Replay(source: .empty, shortfall: .unavailable) }
            if let offset, lseek(reopened, off_t(offset), SEEK_SET) != off_t(offset) {
                Glibc.close(reopened)
                return Replay(source: .empty, shortfall: .unavailable)
            }
            return Replay(source: .descriptor(reopened), shortfall: nil, opened: reopened)
        case .stream:
            guard let relay else { return Replay(source: .empty, shortfall: .unavailable) }
            guard let copy = relay.copy else { return Replay(source: .empty, shortfall: .tooLarge(limit: relay.limit)) }
            return Replay(source: .bytes(copy), shortfall: nil)
        }
    }

    static func kind(of descriptor: Int32) -> Kind {
        var status = stat()
        let flags = fcntl(descriptor, F_GETFL)
        guard fstat(descriptor, &status) == 0, flags >= 0, flags & O_ACCMODE != O_WRONLY else { return .closed }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK: return .stream
        case S_IFCHR where isatty(descriptor) != 0: return .terminal
        default:
            let offset = lseek(descriptor, 0, SEEK_CUR)
            return .file(offset: offset >= 0 ? Int64(offset) : nil)
        }
    }
}

/// A thread copying asmrun's stdin into a pipe the program reads, keeping what it copied.
private final class Relay: Sendable {
    private struct State {
        /// What was read, kept before it is written (so it holds whatever the program read);
        /// `nil` once more than `limit` bytes went through.
        var copy: [UInt8]? = []
        var programEnd: Int32
    }

    let limit: Int
    /// The pipe's read end, the program's stdin.
    let programEnd: Int32
    private let state: Mutex<State>

    private init(programEnd: Int32, limit: Int) {
        self.programEnd = programEnd
        self.limit = limit
        state = Mutex(State(programEnd: programEnd))
    }

    /// The relay, running; `nil` when no pipe or thread could be had (the program then reads
    /// asmrun's stdin itself).
    static func start(from input: Int32, limit: Int) -> Relay? {
        var fds: [Int32] = [-1, -1]
        guard asmrun_pipe_cloexec(&fds) == 0 else { return nil }
        // A program that ends without reading everything closes the pipe: the write fails with
        // EPIPE rather than killing asmrun.
        asmrun_ignore_sigpipe()
        let relay = Relay(programEnd: fds[0], limit: limit)
        let writeEnd = fds[1]
        guard DetachedThread.start(stackSize: 256 << 10, { relay.pump(from: input, to: writeEnd) }) else {
            close(fds[0])
            close(fds[1])
            return nil
        }
        return relay
    }

    var copy: [UInt8]? { state.withLock { $0.copy } }

    func closeProgramEnd() {
        let end = state.withLock { state in
            defer { state.programEnd = -1 }
            return state.programEnd
        }
        if end >= 0 { close(end) }
    }

    /// Reads `input` until its end, writing each piece to `output` until the program's end of the
    /// pipe is closed, then closes `output` (the program reads end-of-file).
    private func pump(from input: Int32, to output: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        reading: while true {
            let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 && errno == EAGAIN {
                // Someone else made the shared descriptor non-blocking: wait for input.
                var entry = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                continue
            }
            guard got > 0 else { break }
            keep(buffer[0..<got])
            var done = 0
            while done < got {
                let wrote = buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, got - done) }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { break reading }
                done += wrote
            }
        }
        close(output)
    }

    private func keep(_ bytes: ArraySlice<UInt8>) {
        state.withLock { state in
            guard let count = state.copy?.count else { return }
            if count + bytes.count > limit {
                state.copy = nil
            } else {
                state.copy?.append(contentsOf: bytes)
            }
        }
    }
}
