import Glibc
import Source
import Support

/// How long each program took last time (build plus all its cases), kept in the cache folder so
/// the next run can start the slowest programs first and finish sooner on every core. The file
/// is bounded: an entry not seen for `maxAge` is dropped, and past `maxEntries` the least
/// recently seen go; `asmrun cache clean` removes it.
///
/// Lines are `SECONDS\tLAST-SEEN\tPATH`, most recently seen first (an older `SECONDS\tPATH`
/// counts as seen now). The file may hold `maxEntries` lines and every run reads it, so it is
/// kept as bytes: a line's path becomes a string only when it is one of this run's programs
/// (making 20,000 strings and two dictionaries of them cost a warm run of 100 programs half as
/// long again), and a save copies the other lines as they are.
struct Timings: Sendable {
    /// A valid line of the file: where its path is, its seconds and when it was last seen.
    private struct Line: Sendable {
        /// The whole line, when it is in the current format (a save copies it as it is).
        var current: Range<Int>?
        var name: Range<Int>
        var seconds: Double
        var seen: Int
        var hash: UInt64
    }

    private var file: [UInt8] = []
    private var lines: [Line] = []
    private let now: Int
    let path: String?

    static let maxAge = 30 * 86_400
    static let maxEntries = 20_000

    /// Loads `timings` from the cache folder; missing or unreadable means no history.
    init(cacheRoot: String?, now: Int = Int(time(nil))) {
        self.now = now
        path = cacheRoot.map { $0 + "/timings" }
        guard let path, let data = try? Files.read(path) else { return }
        index(data)
    }

    /// Takes `data` as the file and finds its valid lines. On the buffer, with memchr: 20,000
    /// lines were 18 million instructions as a loop over bytes, more than the rest of a warm
    /// run of 200 programs.
    private mutating func index(_ data: [UInt8]) {
        file = data
        var found: [Line] = []
        found.reserveCapacity(data.count / 40)
        let now = self.now
        data.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                let end = Self.find(UInt8(ascii: "\n"), base, start, bytes.count) ?? bytes.count
                if let line = Self.parse(base, start..<end, now: now) { found.append(line) }
                start = end + 1
            }
        }
        lines = found
    }

    /// The first `byte` in `base[from..<to]`.
    private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private static func parse(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, now: Int) -> Line? {
        let tab = UInt8(ascii: "\t")
        guard let first = find(tab, base, range.lowerBound, range.upperBound),
            let value = decimal(UnsafeBufferPointer(start: base + range.lowerBound, count: first - range.lowerBound))
        else { return nil }
        var name = (first + 1)..<range.upperBound
        var last = now
        var current: Range<Int>?
        if let second = find(tab, base, name.lowerBound, range.upperBound),
            let stamp = integer(UnsafeBufferPointer(start: base + name.lowerBound, count: second - name.lowerBound))
        {
            name = (second + 1)..<range.upperBound
            last = stamp
            current = range
        }
        guard !name.isEmpty else { return nil }
        return Line(
            current: current, name: name, seconds: value, seen: last,
            hash: hash(UnsafeBufferPointer(start: base + name.lowerBound, count: name.count)))
    }

    /// FNV-1a: paths are compared as bytes, a hash first.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return value
    }

    /// Finds the lines whose path is one of `keys`: the first of each, or with `every` all of
    /// them; `found(line index, key index)`. The keys' hashes sit in an open-addressed table.
    private func lookUp(_ keys: [String], every: Bool = false, _ found: (Int, Int) -> Void) {
        guard !keys.isEmpty else { return }
        let bytes = keys.map { Array($0.utf8) }
        var size = 16
        while size < keys.count * 4 { size *= 2 }
        var slots = [Int](repeating: -1, count: size)
        let hashes = bytes.map { key in key.withUnsafeBufferPointer { Self.hash($0) } }
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = index
        }
        var done = [Bool](repeating: false, count: keys.count)
        file.withUnsafeBufferPointer { file in
            for (lineIndex, line) in lines.enumerated() {
                var slot = Int(truncatingIfNeeded: line.hash) & (size - 1)
                while slots[slot] >= 0 {
                    let index = slots[slot]
                    slot = (slot + 1) & (size - 1)
                    guard hashes[index] == line.hash, every || !done[index],
                        UnsafeBufferPointer(rebasing: file[line.name]).elementsEqual(bytes[index])
                    else { continue }
                    done[index] = true
                    found(lineIndex, index)
                }
            }
        }
    }

    /// Seconds per program path (each first line), for tests and tools.
    var seconds: [String: Double] {
        var result: [String: Double] = [:]
        for line in lines.reversed() { result[String(decoding: file[line.name], as: UTF8.self)] = line.seconds }
        return result
    }

    /// `12.3456` → 12.3456; `nil` for anything but digits with at most one point (at most 18
    /// digits before it and 9 after).
    static func decimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Double? {
        if let parsed = bytes.withContiguousStorageIfAvailable({ decimal($0) }) { return parsed }
        return Array(bytes).withUnsafeBufferPointer { decimal($0) }
    }

    /// The same, in one pass over the buffer.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var whole = 0
        var wholeDigits = 0
        var fraction = 0
        var fractionDigits = 0
        var point = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !point else { return nil }
                point = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            if point {
                fractionDigits += 1
                guard fractionDigits <= 9 else { return nil }
                fraction = fraction * 10 + digit
            } else {
                wholeDigits += 1
                guard wholeDigits <= 18 else { return nil }
                whole = whole * 10 + digit
            }
        }
        guard wholeDigits > 0 else { return nil }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        return Double(whole) + Double(fraction) / scale
    }

    /// Decimal digits only, at most 18 of them.
    static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Seconds with four decimals (`0.0123`), without going through printf.
    static func format(_ value: Double) -> String {
        let tenths = Int((min(max(value, 0), 1e9) * 10_000).rounded())
        let fraction = String(tenths % 10_000)
        return String(tenths / 10_000) + "." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// Indices of `programs`, slowest known first; programs without history keep their order
    /// ahead of the known fast ones, since a new program may be slow.
    func order(_ programs: [TestProgram]) -> [Int] {
        var known = [Double?](repeating: nil, count: programs.count)
        lookUp(programs.map { ProgramFolder.standardize($0.path) }) { line, index in known[index] = lines[line].seconds }
        return programs.indices.sorted { left, right in
            switch (known[left], known[right]) {
            case (nil, nil): return left < right
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?): return a != b ? a > b : left < right
            }
        }
    }

    /// Records new durations (first in the file, seen now), keeps the other lines not seen for
    /// `maxAge` as they are, up to `maxEntries` in all, and writes the file atomically; failures
    /// only lose the history.
    mutating func save(_ durations: [String: Double], now: Int = Int(time(nil))) {
        guard let path else { return }
        let fresh = durations.map { (key: ProgramFolder.standardize($0.key), seconds: $0.value) }.sorted { $0.key < $1.key }
        var replaced = [Bool](repeating: false, count: lines.count)
        lookUp(fresh.map(\.key), every: true) { line, _ in replaced[line] = true }
        var text: [UInt8] = []
        text.reserveCapacity(min(file.count, Self.maxEntries * 64) + fresh.count * 64)
        // What is written is what this value holds next, without reading it again.
        var written: [Line] = []
        written.reserveCapacity(min(lines.count + fresh.count, Self.maxEntries))
        let stamp = Array(String(now).utf8)
        for entry in fresh.prefix(Self.maxEntries) {
            let key = Array(entry.key.utf8)
            key.withUnsafeBufferPointer { name in
                Self.append(&text, &written, seconds: entry.seconds, seen: now, stamp: stamp, name: name, hash: Self.hash(name))
            }
        }
        file.withUnsafeBufferPointer { file in
            Self.copy(lines, except: replaced, from: file, now: now, into: &text, &written)
        }
        try? AtomicFile.write(text, to: path, durable: false)
        file = text
        lines = written
    }

    /// Appends a line of `seconds`, `stamp` and `name` to `text`, and where it is to `written`.
    private static func append(
        _ text: inout [UInt8], _ written: inout [Line], seconds: Double, seen: Int, stamp: some Collection<UInt8>,
        name: UnsafeBufferPointer<UInt8>, hash: UInt64
    ) {
        let start = text.count
        text += format(seconds).utf8
        text.append(UInt8(ascii: "\t"))
        text += stamp
        text.append(UInt8(ascii: "\t"))
        let nameStart = text.count
        text.append(contentsOf: name)
        written.append(Line(current: start..<text.count, name: nameStart..<text.count, seconds: seconds, seen: seen, hash: hash))
        text.append(UInt8(ascii: "\n"))
    }

    /// Appends the lines kept (not `replaced`, seen within `maxAge`) up to `maxEntries` lines in
    /// all: those in the current format as they are, with their fields where they were.
    private static func copy(
        _ lines: [Line], except replaced: [Bool], from file: UnsafeBufferPointer<UInt8>, now: Int, into text: inout [UInt8],
        _ written: inout [Line]
    ) {
        for (index, line) in lines.enumerated() where written.count < maxEntries {
            guard !replaced[index], now - line.seen <= maxAge else { continue }
            guard let current = line.current else {
                append(
                    &text, &written, seconds: line.seconds, seen: line.seen, stamp: String(line.seen).utf8,
                    name: UnsafeBufferPointer(rebasing: file[line.name]), hash: line.hash)
                continue
            }
            let shift = text.count - current.lowerBound
            text.append(contentsOf: UnsafeBufferPointer(rebasing: file[current]))
            written.append(
                Line(
                    current: (current.lowerBound + shift)..<(current.upperBound + shift),
                    name: (line.name.lowerBound + shift)..<(line.name.upperBound + shift), seconds: line.seconds, seen: line.seen,
                    hash: line.hash))
            text.append(UInt8(ascii: "\n"))
        }
    }
}
