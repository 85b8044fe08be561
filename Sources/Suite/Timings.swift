import Support

/// How long each program took last time (build plus all its cases), kept in the cache folder so
/// the next run can start the slowest programs first and finish sooner on every core.
struct Timings: Sendable {
    private(set) var seconds: [String: Double] = [:]
    let path: String?

    /// Loads `timings` from the cache folder; missing or unreadable means no history.
    init(cacheRoot: String?) {
        path = cacheRoot.map { $0 + "/timings" }
        guard let path, let data = try? Files.read(path) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[0]) { seconds[String(parts[1])] = value }
        }
    }

    /// Indices of `programs`, slowest known first; programs without history keep their order
    /// ahead of the known fast ones, since a new program may be slow.
    func order(_ programs: [TestProgram]) -> [Int] {
        let known = programs.map { seconds[Discovery.standardize($0.path)] }
        return programs.indices.sorted { left, right in
            switch (known[left], known[right]) {
            case (nil, nil): return left < right
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?): return a != b ? a > b : left < right
            }
        }
    }

    /// Records new durations and writes the file atomically; failures only lose the history.
    mutating func save(_ durations: [String: Double]) {
        for (program, value) in durations { seconds[Discovery.standardize(program)] = value }
        guard let path else { return }
        let text = seconds.sorted { $0.key < $1.key }.map { String(format: "%.4f", $0.value) + "\t" + $0.key }
            .joined(separator: "\n")
        try? AtomicFile.write(Array((text + "\n").utf8), to: path)
    }
}
