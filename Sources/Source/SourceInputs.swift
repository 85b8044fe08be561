import Glibc

/// What makes nasm's output depend on more than the files a source names: environment variables
/// it reads with `%!NAME`, the clock (`__?DATE?__` and its kin), and files it reads through
/// names a scan cannot resolve (a macro's `%include`, `%pathsearch`, `%depend`). The build cache
/// keys on the first, never caches the second, and asks nasm itself about the third.
package struct SourceInputs: Sendable, Equatable {
    /// `%!NAME`, `%!'NAME'` and `%!"NAME"`, each once, in the order found.
    package var environmentNames: [String] = []
    /// `%!` before something that is not a name (`%!%1`): the variable read is computed.
    var readsComputedEnvironment = false
    /// `__?DATE?__`, `__TIME__`, `__?POSIX_TIME?__` and the rest: each build differs.
    var readsClock = false
    /// nasm may read files the scan cannot name: only nasm's own list of them tells.
    package var opaque = false

    package init() {}

    /// Whether an object built from it may be cached at all.
    package var cacheable: Bool { !readsComputedEnvironment && !readsClock }

    /// What a file nasm includes makes it read (its `%include`s aside).
    package static func of(_ bytes: [UInt8]) -> SourceInputs { SourceScan(bytes, includesOnly: true).inputs }

    /// Adds what `other` reads.
    package mutating func formUnion(_ other: SourceInputs) {
        for name in other.environmentNames where !environmentNames.contains(name) { environmentNames.append(name) }
        readsComputedEnvironment = readsComputedEnvironment || other.readsComputedEnvironment
        readsClock = readsClock || other.readsClock
        opaque = opaque || other.opaque
    }

    /// Records every `%!` in `line[from..<end]` (in a comment or a string too: a name too many
    /// costs a cache miss when it changes, one too few a stale build).
    mutating func scanEnvironment(_ line: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) {
        var position = from
        while position + 1 < end {
            guard line[position] == percent, line[position + 1] == bang else {
                position += 1
                continue
            }
            position += 2
            let first = position < end ? line[position] : 0
            var name: Range<Int>
            if first == singleQuote || first == doubleQuote || first == backquote {
                guard let close = line[(position + 1)..<end].firstIndex(of: first) else {
                    readsComputedEnvironment = true
                    return
                }
                name = (position + 1)..<close
                position = close + 1
            } else {
                let start = position
                while position < end && Self.isNameByte(line[position]) { position += 1 }
                name = start..<position
            }
            guard !name.isEmpty else {
                readsComputedEnvironment = true
                continue
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[name]), as: UTF8.self)
            if !environmentNames.contains(text) { environmentNames.append(text) }
        }
    }

    /// nasm's clock macros, in their `__?NAME?__` and older `__NAME__` spellings, from `start`.
    static func isClockMacro(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= 8, line[start + 1] == underscore else { return false }
        var position = start + 2
        if line[position] == question { position += 1 }
        for name in clockNames where position + name.count <= end {
            let matches = name.indices.allSatisfy { SourceScan.lowercased(line[position + $0]) == name[$0] }
            guard matches else { continue }
            var after = position + name.count
            if after < end && line[after] == question { after += 1 }
            if after + 2 <= end && line[after] == underscore && line[after + 1] == underscore { return true }
        }
        return false
    }

    private static let clockNames: [[UInt8]] = [
        "date_num", "time_num", "date", "time", "utc_date_num", "utc_time_num", "utc_date", "utc_time", "posix_time",
    ].map { Array($0.utf8) }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == underscore
    }
}

private let percent = UInt8(ascii: "%")
private let bang = UInt8(ascii: "!")
private let underscore = UInt8(ascii: "_")
private let question = UInt8(ascii: "?")
private let singleQuote = UInt8(ascii: "'")
private let doubleQuote = UInt8(ascii: "\"")
private let backquote = UInt8(ascii: "`")
