import Glibc
import Source
import Support

/// How long each program took last time (build plus all its cases), kept in the cache folder so
/// the next run can start the slowest programs first and finish sooner on every core. The file
/// is bounded: an entry not seen for `maxAge` is dropped, and past `maxEntries` the least
/// recently seen go; `asmrun cache clean` removes it.
struct Timings: Sendable {
    private(set) var seconds: [String: Double] = [:]
    /// When each program was last run, in seconds since 1970.
    private var seen: [String: Int] = [:]
    let path: String?

    static let maxAge = 30 * 86_400
    static let maxEntries = 20_000

    /// Loads `timings` from the cache folder; missing or unreadable means no history. Lines are
    /// `SECONDS\tLAST-SEEN\tPATH` (an older `SECONDS\tPATH` counts as seen now). Read on bytes:
    /// the file may hold `maxEntries` lines, and every run reads it.
    init(cacheRoot: String?, now: Int = Int(time(nil))) {
        path = cacheRoot.map { $0 + "/timings" }
        guard let path, let data = try? Files.read(path) else { return }
        let tab = UInt8(ascii: "\t")
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let first = line.firstIndex(of: tab), let value = Self.decimal(line[..<first]) else { continue }
            let rest = line[(first + 1)...]
            var name = rest
            var last = now
            if let second = rest.firstIndex(of: tab), let stamp = Self.integer(rest[..<second]) {
                name = rest[(second + 1)...]
                last = stamp
            }
            guard !name.isEmpty else { continue }
            let key = String(decoding: name, as: UTF8.self)
            seconds[key] = value
            seen[key] = last
        }
    }

    /// `12.3456` → 12.3456; `nil` for anything but digits with at most one point.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else { return integer(bytes).map(Double.init) }
        let fraction = bytes[(point + 1)...]
        guard let whole = integer(bytes[..<point]), fraction.count <= 9, let part = fraction.isEmpty ? 0 : integer(fraction) else {
            return nil
        }
        var scale = 1.0
        for _ in 0..<fraction.count { scale *= 10 }
        return Double(whole) + Double(part) / scale
    }

    /// Decimal digits only, at most 18 of them.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
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
        let known = programs.map { seconds[ProgramFolder.standardize($0.path)] }
        return programs.indices.sorted { left, right in
            switch (known[left], known[right]) {
            case (nil, nil): return left < right
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?): return a != b ? a > b : left < right
            }
        }
    }

    /// Records new durations, drops what is stale and writes the file atomically; failures only
    /// lose the history.
    mutating func save(_ durations: [String: Double], now: Int = Int(time(nil))) {
        for (program, value) in durations {
            let key = ProgramFolder.standardize(program)
            seconds[key] = value
            seen[key] = now
        }
        for (key, last) in seen where now - last > Self.maxAge {
            seconds[key] = nil
            seen[key] = nil
        }
        if seconds.count > Self.maxEntries {
            for (key, _) in seen.sorted(by: { $0.value < $1.value }).prefix(seconds.count - Self.maxEntries) {
                seconds[key] = nil
                seen[key] = nil
            }
        }
        guard let path else { return }
        // In the dictionary's order: nothing reads the file but this type, and sorting thousands
        // of paths on every run would cost more than the rest of the save.
        var text: [UInt8] = []
        text.reserveCapacity(seconds.count * 64)
        for (key, value) in seconds {
            text += Self.format(value).utf8
            text.append(UInt8(ascii: "\t"))
            text += String(seen[key] ?? now).utf8
            text.append(UInt8(ascii: "\t"))
            text += key.utf8
            text.append(UInt8(ascii: "\n"))
        }
        try? AtomicFile.write(text, to: path)
    }
}
