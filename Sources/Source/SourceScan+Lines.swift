extension SourceScan {
    /// Scans the next chunk of the text.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        let bytes = UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count)
        if atStart {
            // The first three bytes may be a byte order mark, whatever the chunks.
            carry += bytes
            guard carry.count >= 3 else { return }
            atStart = false
            var head = carry
            carry = []
            if head.starts(with: [0xef, 0xbb, 0xbf]) { head.removeFirst(3) }
            head.withUnsafeBytes { feed($0) }
            return
        }
        var start = 0
        var index = 0
        if pendingCarriageReturn {
            pendingCarriageReturn = false
            if bytes.first == ASCII.newline { (start, index) = (1, 1) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard Self.endsLine(byte) else {
                index += 1
                continue
            }
            endLine(bytes[start..<index], continuable: byte == ASCII.newline || byte == ASCII.carriageReturn)
            index += 1
            if byte == ASCII.carriageReturn {
                if index == bytes.count {
                    pendingCarriageReturn = true
                } else if bytes[index] == ASCII.newline {
                    index += 1
                }
            }
            start = index
        }
        appendCarry(bytes[start...])
    }

    /// Scans the last line, which has no line end (a `\` ending it joins it to nothing, as in nasm).
    mutating func finish() {
        if atStart && carry.starts(with: [0xef, 0xbb, 0xbf]) { carry.removeFirst(3) }
        atStart = false
        if lastCarried == ASCII.backslash && carry.last == ASCII.backslash { carry.removeLast() }
        let line = carry
        carry = []
        line.withUnsafeBufferPointer { scanLine($0) }
    }

    /// nasm 2.16 ends a line at LF, CRLF, a lone CR, ^Z or NUL (each one line), and joins a line
    /// ending in `\` right before LF, CRLF or CR to the next before it reads it: `inc\` then
    /// `bin "x"` is `incbin "x"`, `%\` then `include` a `%include`. The scan reads the lines
    /// nasm reads, numbered by the first physical line of each.
    private static func endsLine(_ byte: UInt8) -> Bool {
        byte == ASCII.newline || byte == ASCII.carriageReturn || byte == 0x1a || byte == 0
    }

    /// The physical line whose rest is `bytes` (its start may be carried) ended.
    private mutating func endLine(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, continuable: Bool) {
        let last = bytes.last ?? lastCarried
        lastCarried = nil
        if continuable && last == ASCII.backslash {
            if bytes.isEmpty {
                if carry.last == ASCII.backslash { carry.removeLast() }
            } else {
                appendCarry(bytes.dropLast())
            }
            continuedLines += 1
            return
        }
        if carry.isEmpty {
            scanLine(UnsafeBufferPointer(rebasing: bytes))
        } else {
            appendCarry(bytes)
            let line = carry
            carry = []
            line.withUnsafeBufferPointer { scanLine($0) }
        }
        lineNumber += continuedLines
        continuedLines = 0
    }

    private mutating func appendCarry(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        if let last = bytes.last { lastCarried = last }
        let room = Self.maxLine - carry.count
        if room > 0 { carry += bytes.prefix(room) }
    }
}
