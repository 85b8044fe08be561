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
    /// `SECONDS\tLAST-SEEN\tPATH` (an older `SECONDS\tPATH` counts as seen now).
    init(cacheRoot: String?, now: Int = Int(time(nil))) {
        path = cacheRoot.map { $0 + "/timings" }
        guard let path, let data = try? Files.read(path) else { return }
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: "\t"), maxSplits: 2).map { String(decoding: $0, as: UTF8.self) }
            guard parts.count >= 2, let value = Double(parts[0]), value.isFinite, value >= 0 else { continue }
            if parts.count == 3, let last = Int(parts[1]) {
                seconds[parts[2]] = value
                seen[parts[2]] = last
            } else {
                seconds[parts[1]] = value
                seen[parts[1]] = now
            }
        }
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
        let text = seconds.sorted { $0.key < $1.key }.map { entry in
            String(format: "%.4f", entry.value) + "\t\(seen[entry.key] ?? now)\t" + entry.key
        }
        try? AtomicFile.write(Array((text.joined(separator: "\n") + "\n").utf8), to: path)
    }
}
