import Source
import Support

/// `--shard K/N`: which programs one of N CI jobs runs. Each program goes to the shard its
/// stable key hashes to (FNV-1a of its path below the path given, with that path's last
/// component: the same on every machine and checkout folder), so adding or removing a program
/// never moves another. With timings (`--balance`), programs are dealt instead to the least
/// loaded shard, slowest first: shards finish together, but adding a program may move others.
package struct Shard: Sendable, Equatable {
    /// 1-based.
    package let index: Int
    package let count: Int

    /// The most shards a run may be split into (a GitHub Actions matrix has at most 256 jobs).
    package static let maximumCount = 1000

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The shard (0-based) of each program, in order. `timings` are seconds per program path
    /// (as a report names it: relative paths are taken from the working directory); programs
    /// without one count as the median of those known.
    package static func assign(_ programs: [TestProgram], count: Int, timings: [String: Double]? = nil) -> [Int] {
        let keys = programs.map(key)
        let hashes = keys.map(stableHash)
        // The same slice as `holds` gives.
        guard let timings else { return hashes.map { Int($0 % UInt64(count)) } }
        var seconds: [String: Double] = [:]
        for (path, value) in timings { seconds[ProgramFolder.standardize(path), default: 0] += value }
        let known = programs.map { seconds[ProgramFolder.standardize($0.path)] }
        let values = known.compactMap { $0 }.sorted()
        let typical = values.isEmpty ? 1 : values[values.count / 2]
        let weights = known.map { $0 ?? typical }
        let order = programs.indices.sorted { left, right in
            if weights[left] != weights[right] { return weights[left] > weights[right] }
            return keys[left] < keys[right]
        }
        var loads = Array(repeating: 0.0, count: count)
        var shards = Array(repeating: 0, count: programs.count)
        for index in order {
            var lightest = 0
            for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
            shards[index] = lightest
            loads[lightest] += weights[index]
        }
        return shards
    }

    /// Whether `program` is in this shard when shards are hashed (not balanced): known as soon
    /// as the program is read, so it can be built ahead.
    package func holds(_ program: TestProgram) -> Bool {
        Int(Self.stableHash(Self.key(of: program)) % UInt64(count)) == index - 1
    }

    /// `asm/hello.asm` for `/ci/work/asm/hello.asm` found under `asm` (or `/ci/work/asm`).
    static func key(of program: TestProgram) -> String {
        let root = ProgramFolder.standardize(program.root)
        let path = ProgramFolder.standardize(program.path)
        let top = PathName.lastComponent(of: root)
        guard path.hasPrefix(root + "/") else { return PathName.lastComponent(of: path) }
        return top + "/" + path.dropFirst(root.count + 1)
    }

    /// 64-bit FNV-1a: a hash that is the same in every process and on every machine (Swift's
    /// `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

extension TestSuite {
    /// Keeps the programs of `shard` and returns how many there were in all.
    package mutating func keep(_ shard: Shard, timings: [String: Double]? = nil) -> Int {
        let total = programs.count
        let assigned = Shard.assign(programs, count: shard.count, timings: timings)
        programs = programs.indices.filter { assigned[$0] == shard.index - 1 }.map { programs[$0] }
        return total
    }
}
