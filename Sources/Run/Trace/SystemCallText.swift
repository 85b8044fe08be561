/// A system call as a trace shows it: `write(1, "Hello\n", 6) = 6`.
enum SystemCallText {
    /// Names and argument counts of the calls learners' programs make.
    private static let calls64: [UInt64: (String, Int)] = [
        0: ("read", 3), 1: ("write", 3), 2: ("open", 3), 3: ("close", 1), 4: ("stat", 2), 5: ("fstat", 2), 8: ("lseek", 3),
        9: ("mmap", 6), 10: ("mprotect", 3), 11: ("munmap", 2), 12: ("brk", 1), 35: ("nanosleep", 2), 39: ("getpid", 0),
        57: ("fork", 0), 59: ("execve", 3), 60: ("exit", 1), 62: ("kill", 2), 79: ("getcwd", 2), 80: ("chdir", 1),
        83: ("mkdir", 2), 87: ("unlink", 1), 201: ("time", 1), 228: ("clock_gettime", 2), 231: ("exit_group", 1),
        257: ("openat", 4), 318: ("getrandom", 3),
    ]
    private static let calls32: [UInt64: (String, Int)] = [
        1: ("exit", 1), 2: ("fork", 0), 3: ("read", 3), 4: ("write", 3), 5: ("open", 3), 6: ("close", 1), 10: ("unlink", 1),
        11: ("execve", 3), 12: ("chdir", 1), 13: ("time", 1), 19: ("lseek", 3), 20: ("getpid", 0), 37: ("kill", 2),
        39: ("mkdir", 2), 45: ("brk", 1), 90: ("mmap", 1), 91: ("munmap", 2), 192: ("mmap2", 6), 252: ("exit_group", 1),
    ]
    private static let errors: [Int64: String] = [
        -1: "EPERM", -2: "ENOENT", -9: "EBADF", -12: "ENOMEM", -13: "EACCES", -14: "EFAULT", -17: "EEXIST", -21: "EISDIR",
        -22: "EINVAL", -38: "ENOSYS",
    ]

    /// The call made with `before`'s registers, returning `after`'s rax (`nil`: it did not return).
    static func describe(before: [UInt64], after: [UInt64]?, thirtyTwoBit: Bool, memory: (UInt64, Int) -> [UInt8]?) -> String {
        let mask: UInt64 = thirtyTwoBit ? 0xffff_ffff : .max
        let number = before[TraceRegisters.rax] & mask
        // rdi rsi rdx r10 r8 r9; ebx ecx edx esi edi ebp.
        let slots = thirtyTwoBit ? [1, 2, 3, 4, 5, 6] : [5, 4, 3, 10, 8, 9]
        let known = (thirtyTwoBit ? calls32 : calls64)[number]
        let name = known?.0 ?? "syscall \(number)"
        let arguments = slots.prefix(known?.1 ?? 3).map { before[$0] & mask }
        let result = after.map { TraceFormat.signed($0[TraceRegisters.rax], thirtyTwoBit: thirtyTwoBit) }
        var shown = arguments.map { TraceFormat.value($0, thirtyTwoBit: thirtyTwoBit) }
        // The bytes written, or read (once the call said how many).
        if name == "write", arguments.count == 3, let bytes = memory(arguments[1], Int(min(arguments[2], 40))) {
            shown[1] = TraceFormat.quoted(bytes, complete: arguments[2] <= 40)
        } else if name == "read", let result, result > 0, let bytes = memory(arguments[1], Int(min(result, 40))) {
            shown[1] = TraceFormat.quoted(bytes, complete: result <= 40)
        }
        let call = "\(name)(\(shown.joined(separator: ", ")))"
        guard let result else { return call }
        return call + " = \(result)" + (errors[result].map { " (\($0))" } ?? "")
    }
}

/// How a trace writes values: small numbers in decimal, addresses in hex, bytes as text.
enum TraceFormat {
    static func value(_ value: UInt64, thirtyTwoBit: Bool) -> String {
        let number = signed(value, thirtyTwoBit: thirtyTwoBit)
        if number > -65536 && number < 65536 { return String(number) }
        return "0x" + String(thirtyTwoBit ? value & 0xffff_ffff : value, radix: 16)
    }

    static func signed(_ value: UInt64, thirtyTwoBit: Bool) -> Int64 {
        thirtyTwoBit ? Int64(Int32(truncatingIfNeeded: value)) : Int64(bitPattern: value)
    }

    /// `"Hello\n"`, `"Hello…"` when there was more.
    static func quoted(_ bytes: [UInt8], complete: Bool) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case 0x0a: text += "\\n"
            case 0x09: text += "\\t"
            case 0x22: text += "\\\""
            case 0x5c: text += "\\\\"
            case 0x20..<0x7f: text.append(Character(Unicode.Scalar(byte)))
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return text + (complete ? "\"" : "\"…")
    }

    /// Bytes in memory as the number they hold (up to 8, little-endian), else as text.
    static func memory(_ bytes: [UInt8]) -> String {
        let text = bytes.allSatisfy { (0x20..<0x7f).contains($0) || $0 == 0x0a || $0 == 0x09 } && bytes.contains { $0 > 0x20 }
        guard bytes.count <= 8, !(text && bytes.count >= 2) else { return quoted(Array(bytes.prefix(40)), complete: bytes.count <= 40) }
        let number = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return bytes.count < 4 ? String(number) : value(number, thirtyTwoBit: bytes.count == 4)
    }
}
