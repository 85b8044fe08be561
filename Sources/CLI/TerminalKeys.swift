import Glibc

/// `asmrun test --review`'s keys, read from the terminal on standard input one at a time in raw
/// mode: no echo, no line editing, Ctrl-C read as a key (the review ends on it). The terminal is
/// raw for the whole walk, prompts included (a key typed as soon as a prompt shows is never read
/// in line mode), and keys typed before it are dropped; its settings are restored after the walk,
/// and by SIGTERM, SIGHUP, SIGINT or SIGQUIT arriving meanwhile (then delivered as before).
enum TerminalKeys {
    /// Standard input is a terminal: `--review` is refused otherwise.
    static var inputIsTerminal: Bool { isatty(0) == 1 }

    static let signals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]

    /// Runs `body` with the terminal raw (as it is when its settings cannot be read).
    static func raw<T>(_ body: () -> T) -> T {
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return body() }
        savedSettings = saved
        let previous = signals.map { number in
            let old = signal(number, restoreThenDeliver)
            // One that was ignored (nohup, a background job) stays ignored.
            if let old, unsafeBitCast(old, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(number, SIG_IGN) }
            return old
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        defer {
            tcsetattr(0, TCSANOW, &saved)
            for (number, handler) in zip(signals, previous) { signal(number, handler) }
        }
        tcsetattr(0, TCSAFLUSH, &raw)
        return body()
    }

    /// The next key; `nil` at the end of the input (or when it cannot be read). An escape
    /// sequence (an arrow, a function key: ESC `[` `A`…) is one key, ESC, with the rest of it
    /// dropped: its letters are not keys (`A` would accept every case left).
    static func read() -> UInt8? {
        guard let byte = readByte() else { return nil }
        if byte == 0x1B {
            var input = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            while poll(&input, 1, 30) == 1, input.revents & Int16(POLLIN) != 0, readByte() != nil {}
        }
        return byte
    }

    private static func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let got = Glibc.read(0, &byte, 1)
            if got == 1 { return byte }
            if got < 0 && errno == EINTR { continue }
            return nil
        }
    }
}

/// The terminal's settings while a key is awaited, for the signal handler (written before it is
/// installed).
nonisolated(unsafe) private var savedSettings = termios()

/// A signal's handler while the terminal is raw: the settings back, then the signal as it would
/// have come (its default action: the process ends as it would have).
private func restoreThenDeliver(_ number: Int32) {
    tcsetattr(0, TCSANOW, &savedSettings)
    signal(number, SIG_DFL)
    raise(number)
}
