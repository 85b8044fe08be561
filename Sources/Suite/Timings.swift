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

    /// Takes `data` as the file and finds its valid lines.
    private mutating func index(_ data: [UInt8]) {
        file = data
        var found: [Line] = []
        found.reserveCapacity(data.count / 48)
        let now = self.now
        // On the buffer: an array slice per line and field cost as much as the rest of a warm run.
        data.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if let line = Self.parse(bytes, start..<end, now: now) { found.append(line) }
                start = end + 1
            }
        }
        lines = found
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, now: Int) -> Line? {
        let tab = UInt8(ascii: "\t")
        var first = range.lowerBound
        while first < range.upperBound && bytes[first] != tab { first += 1 }
        guard first < range.upperBound, let value = decimal(bytes[range.lowerBound..<first]) else { return nil }
        var name = (first + 1)..<range.upperBound
        var last = now
        var current: Range<Int>?
        var second = name.lowerBound
        while second < range.upperBound && bytes[second] != tab { second += 1 }
        if second < range.upperBound, let stamp = integer(bytes[name.lowerBound..<second]) {
            name = (second + 1)..<range.upperBound
            last = stamp
            current = range
        }
        guard !name.isEmpty else { return nil }
        return Line(current: current, name: name, seconds: value, seen: last, hash: hash(bytes[name]))
    }

    /// FNV-1a: paths are compared as bytes, a hash first.
    private static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return value
    }

    /// Finds the lines whose path is one of `keys`: the first of each, or with `every` all of
    /// them; `found(line, key index)`.
    private func lookUp(_ keys: [String], every: Bool = false, _ found: (Line, Int) -> Void) {
        var table: [UInt64: [Int]] = [:]
        let bytes = keys.map { Array($0.utf8) }
        for (index, key) in bytes.enumerated() { table[Self.hash(key), default: []].append(index) }
        var done = Set<Int>()
        for line in lines {
            guard let candidates = table[line.hash] else { continue }
            for index in candidates where (every || !done.contains(index)) && file[line.name].elementsEqual(bytes[index]) {
                done.insert(index)
                found(line, index)
            }
        }
    }

    /// Seconds per program path (each first line), for tests and tools.
    var seconds: [String: Double] {
        var result: [String: Double] = [:]
        for line in lines.reversed() { result[String(decoding: file[line.name], as: UTF8.self)] = line.seconds }
        return result
    }

    /// `12.3456` → 12.3456; `nil` for anything but digits with at most one point.
    static func decimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Double? {
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else { return integer(bytes).map(Double.init) }
        let fraction = bytes[bytes.index(after: point)...]
        guard let whole = integer(bytes[..<point]), fraction.count <= 9, let part = fraction.isEmpty ? 0 : integer(fraction) else {
            return nil
        }
        var scale = 1.0
        for _ in 0..<fraction.count { scale *= 10 }
        return Double(whole) + Double(part) / scale
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
        lookUp(programs.map { ProgramFolder.standardize($0.path) }) { line, index in known[index] = line.seconds }
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
        var replaced = Set<Int>()
        lookUp(fresh.map(\.key), every: true) { line, _ in replaced.insert(line.name.lowerBound) }
        var text: [UInt8] = []
        text.reserveCapacity(min(file.count, Self.maxEntries * 64) + fresh.count * 64)
        // What is written is what this value holds next, without reading it again.
        var written: [Line] = []
        func append(_ line: Line, _ bytes: () -> Void) {
            let start = text.count
            bytes()
            let nameStart = text.count - line.name.count
            written.append(
                Line(current: start..<text.count, name: nameStart..<text.count, seconds: line.seconds, seen: line.seen, hash: line.hash))
            text.append(UInt8(ascii: "\n"))
        }
        let stamp = Array(String(now).utf8)
        for entry in fresh.prefix(Self.maxEntries) {
            let key = Array(entry.key.utf8)
            let line = Line(current: nil, name: 0..<key.count, seconds: entry.seconds, seen: now, hash: Self.hash(key))
            append(line) {
                text += Self.format(entry.seconds).utf8
                text.append(UInt8(ascii: "\t"))
                text += stamp
                text.append(UInt8(ascii: "\t"))
                text += key
            }
        }
        for line in lines where written.count < Self.maxEntries {
            guard !replaced.contains(line.name.lowerBound), now - line.seen <= Self.maxAge else { continue }
            append(line) {
                if let current = line.current {
                    text += file[current]
                } else {
                    text += Self.format(line.seconds).utf8
                    text.append(UInt8(ascii: "\t"))
                    text += String(line.seen).utf8
                    text.append(UInt8(ascii: "\t"))
                    text += file[line.name]
                }
            }
        }
        try? AtomicFile.write(text, to: path, durable: false)
        file = text
        lines = written
    }
}
