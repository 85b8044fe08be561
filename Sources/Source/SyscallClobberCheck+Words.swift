extension SyscallClobberCheck {
    /// Whether `bytes` hold a word that reads rcx or r11, or could make one: the registers' names
    /// (`rcx`, `ecx`, `cx`, `cl`, `ch`, `r11` and its parts), the instructions that read rcx
    /// without naming it (`loop`, `jrcxz`, `rep`, `cpuid`, `cmpxchg16b` …), and the preprocessor's
    /// ways of making a word out of others (`%+`, `%strcat`, `%substr`, `%tok`, `%deftok`). A
    /// program none of whose files holds one has nothing to warn about, and is not read further
    /// (its words are counted in comments and strings too: a word too many costs the check, one
    /// too few a warning).
    static func mentionsCounter(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "%") && index + 1 < buffer.count
                    && (buffer[index + 1] == UInt8(ascii: "+") || pasting(buffer, from: index + 1))
                {
                    return true
                }
                guard isWordByte(byte) else {
                    index += 1
                    continue
                }
                let start = index
                while index < buffer.count && isWordByte(buffer[index]) { index += 1 }
                if index - start >= 2, index - start <= 10, isCounterWord(buffer, start..<index) { return true }
            }
            return false
        }
    }

    /// `%strcat`, `%substr`, `%tok`, `%deftok` after the `%` (at `start`).
    private static func pasting(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        for name in pastingDirectives where start + name.count <= buffer.count {
            if name.indices.allSatisfy({ buffer[start + $0] | 0x20 == name[$0] }) { return true }
        }
        return false
    }

    private static let pastingDirectives: [[UInt8]] = ["strcat", "substr", "tok", "deftok"].map { Array($0.utf8) }

    /// The words, as static text: a set of arrays cost a cold run 0.2 ms to build and hash.
    private static let counterWords: [StaticString] = [
        "rcx", "ecx", "cx", "cl", "ch", "r11", "r11d", "r11w", "r11b", "loop", "loope", "loopz", "loopne", "loopnz", "jrcxz", "jecxz",
        "jcxz", "rep", "repe", "repz", "repne", "repnz", "cpuid", "xsetbv", "monitor", "mwait", "monitorx", "mwaitx", "wrpkru",
        "wrmsr", "xgetbv", "rdpmc", "rdmsr", "rdpkru", "cmpxchg8b", "cmpxchg16b",
    ]

    private static func isCounterWord(_ buffer: UnsafeBufferPointer<UInt8>, _ word: Range<Int>) -> Bool {
        for candidate in counterWords where candidate.utf8CodeUnitCount == word.count {
            let text = candidate.utf8Start
            var offset = 0
            while offset < word.count && SourceScan.lowercased(buffer[word.lowerBound + offset]) == text[offset] { offset += 1 }
            if offset == word.count { return true }
        }
        return false
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }
}
