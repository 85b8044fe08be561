import Glibc

/// A program under qemu-user, stopped at its gdbstub: the GDB remote serial protocol spoken
/// directly over the stub's Unix socket (`s` steps, `g` reads the registers, `m` the memory,
/// `Z0` sets a breakpoint), no gdb in between.
final class RemoteTarget: TraceTarget {
    private let socket: Int32
    private let thirtyTwoBit: Bool
    private var buffer: [UInt8] = []
    private var ended = false

    /// Connects to the gdbstub listening on `path`.
    init(socket path: String, thirtyTwoBit: Bool) throws {
        self.thirtyTwoBit = thirtyTwoBit
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TraceFailure(description: "no socket for qemu's gdbstub") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(socket)
            throw TraceFailure(description: "the gdbstub's socket path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        // qemu binds the socket (the file appears) a moment before it listens: a refused
        // connection is tried again, as gdb does, for up to five seconds.
        var connected: Int32 = -1
        for _ in 0..<5000 {
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected != 0, errno == ECONNREFUSED || errno == EINTR else { break }
            usleep(1000)
        }
        guard connected == 0 else {
            close(socket)
            throw TraceFailure(description: "could not connect to qemu's gdbstub at \(path)")
        }
        // Without acknowledgements, a step is one exchange instead of two.
        if try exchange("QStartNoAckMode") == "OK" { acknowledging = false }
    }

    private var acknowledging = true

    deinit {
        kill()
        close(socket)
    }

    func registers() throws -> [UInt64] {
        let reply = Array(try exchange("g").utf8)
        let size = thirtyTwoBit ? 4 : 8
        func value(at index: Int, bytes: Int) throws -> UInt64 {
            let start = index * 2
            guard start + bytes * 2 <= reply.count, let decoded = Self.hexBytes(reply[start..<start + bytes * 2]) else {
                throw TraceFailure(description: "qemu's gdbstub sent no registers")
            }
            return decoded.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        var values = [UInt64](repeating: 0, count: 18)
        // elf32: eax ecx edx ebx esp ebp esi edi eip eflags; elf64: rax rbx rcx rdx rsi rdi rbp rsp r8–r15 rip eflags.
        let order = thirtyTwoBit ? [0, 2, 3, 1, 7, 6, 4, 5] : Array(0..<16)
        for (position, slot) in order.enumerated() { values[slot] = try value(at: position * size, bytes: size) }
        let ip = order.count * size
        values[TraceRegisters.rip] = try value(at: ip, bytes: size)
        values[TraceRegisters.eflags] = try value(at: ip + size, bytes: 4)
        return values
    }

    func step(signal: Int32) throws -> TraceStop {
        // qemu answers `S` with an empty packet; `vCont;S` steps with a signal.
        try stop(try exchange(signal == 0 ? "s" : "vCont;S" + Self.hex(Self.gdbSignal(signal))))
    }

    /// Stepping over `int 0x80` under qemu-i386 runs the next instruction too: a system call is
    /// run to the instruction after it instead.
    var stepsOverSystemCalls: Bool { false }

    func run(to address: UInt64?, signal: Int32) throws -> TraceStop {
        let point = address.map { "0," + String($0, radix: 16) + ",1" }
        if let point { _ = try exchange("Z" + point) }
        let result = try stop(try exchange(signal == 0 ? "c" : "C" + Self.hex(Self.gdbSignal(signal))))
        if let point, case .stopped = result { _ = try exchange("z" + point) }
        return result
    }

    func read(_ address: UInt64, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = min(count - bytes.count, 1024)
            guard let reply = try? exchange("m\(String(address &+ UInt64(bytes.count), radix: 16)),\(String(chunk, radix: 16))"),
                let decoded = Self.hexBytes(Array(reply.utf8)[...]), decoded.count == chunk
            else { return nil }
            bytes += decoded
        }
        return bytes
    }

    func kill() {
        guard !ended else { return }
        ended = true
        // SIGKILL delivered to the program ends qemu with the line the runner's filter drops;
        // `k` would make qemu print a farewell of its own.
        _ = try? exchange("C09")
    }

    /// `S05`/`T05…` stopped, `W00` exited, `X0b` killed.
    private func stop(_ reply: String) throws -> TraceStop {
        guard let kind = reply.first, let number = Self.hexBytes(Array(reply.utf8.dropFirst().prefix(2))[...])?.first else {
            throw TraceFailure(description: "qemu's gdbstub answered `\(reply.prefix(40))`")
        }
        switch kind {
        case "S", "T": return .stopped(signal: Self.linuxSignal(Int32(number)))
        case "W":
            ended = true
            return .exited(Int32(number))
        case "X":
            ended = true
            return .signaled(Self.linuxSignal(Int32(number)))
        default: throw TraceFailure(description: "qemu's gdbstub answered `\(reply.prefix(40))`")
        }
    }

    private func exchange(_ packet: String) throws -> String {
        try send(packet)
        return try receive()
    }

    private func send(_ packet: String) throws {
        let body = Array(packet.utf8)
        let sum = body.reduce(UInt8(0)) { $0 &+ $1 }
        let bytes = [UInt8(ascii: "$")] + body + [UInt8(ascii: "#")] + Array(Self.hex(Int32(sum)).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.write(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw TraceFailure(description: "qemu's gdbstub closed its socket") }
            sent += count
        }
    }

    /// The next packet's body, acknowledged; `+` acknowledgements before it skipped.
    private func receive() throws -> String {
        while true {
            if let start = buffer.firstIndex(of: UInt8(ascii: "$")), let end = buffer[start...].firstIndex(of: UInt8(ascii: "#")),
                end + 2 < buffer.count
            {
                let body = String(decoding: buffer[(start + 1)..<end], as: UTF8.self)
                buffer.removeSubrange(0...(end + 2))
                if acknowledging { try sendRaw([UInt8(ascii: "+")]) }
                return body
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw TraceFailure(description: "qemu's gdbstub closed its socket") }
            buffer += chunk[..<count]
        }
    }

    private func sendRaw(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.write(socket, $0.baseAddress, $0.count) }) == bytes.count else {
            throw TraceFailure(description: "qemu's gdbstub closed its socket")
        }
    }

    private static func hex(_ value: Int32) -> String {
        let text = String(value & 0xff, radix: 16)
        return text.count == 1 ? "0" + text : text
    }

    /// `0a1b` as bytes; `nil` for an odd count or a non-hex digit (an `E14` error reply).
    static func hexBytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let bytes = BinfmtHandler.bytes(fromHex: String(decoding: text, as: UTF8.self))
        return bytes.isEmpty && !text.isEmpty ? nil : bytes
    }

    /// GDB numbers SIGBUS 10 and SIGUSR1 30 (Linux: 7 and 10); the rest a trace meets agree.
    private static func linuxSignal(_ gdb: Int32) -> Int32 {
        switch gdb {
        case 10: 7
        case 30: 10
        case 31: 12
        default: gdb
        }
    }

    private static func gdbSignal(_ linux: Int32) -> Int32 {
        switch linux {
        case 7: 10
        case 10: 30
        case 12: 31
        default: linux
        }
    }
}
