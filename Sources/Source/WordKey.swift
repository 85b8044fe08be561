/// A word of up to 16 bytes packed into two integers, in lower case: the key the syscall check
/// looks mnemonics, registers and directives up by, with no string made per word (a source of
/// any size is read word by word).
struct WordKey: Hashable, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The key of `bytes`; `nil` when longer than 16 bytes (no word the check knows is).
    init?<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var offset: UInt64 = 0
        for byte in bytes {
            append(byte, at: offset)
            offset += 1
        }
    }

    /// The key of a word of asmrun's own tables.
    init(_ word: String) {
        self = WordKey(word.utf8)!
    }

    /// The keys of the words of `list`, separated by blanks or newlines.
    static func keys(_ list: StaticString) -> [WordKey] {
        var keys: [WordKey] = []
        var key = WordKey()
        var offset: UInt64 = 0
        for index in 0..<list.utf8CodeUnitCount {
            let byte = list.utf8Start[index]
            if byte == AsmLex.space || byte == AsmLex.newline {
                if offset > 0 { keys.append(key) }
                (key, offset) = (WordKey(), 0)
            } else {
                key.append(byte, at: offset)
                offset += 1
            }
        }
        if offset > 0 { keys.append(key) }
        return keys
    }

    private init() {}

    /// A well-mixed number for `WordTable`'s slots.
    var slot: Int {
        let mixed = (low &* 0x9e37_79b9_7f4a_7c15) ^ (high &* 0xc2b2_ae3d_27d4_eb4f)
        return Int(truncatingIfNeeded: mixed >> 29)
    }

    private mutating func append(_ byte: UInt8, at offset: UInt64) {
        let value = UInt64(AsmLex.lowercased(byte))
        if offset < 8 { low |= value << (8 * offset) } else { high |= value << (8 * (offset - 8)) }
    }
}

/// A table from words to values, with open addressing and a multiplicative hash: built in
/// microseconds at first use and read in nanoseconds (a `Dictionary`'s seeded hash cost more
/// than the rest of reading a line). It grows to stay at most half full.
struct WordTable<Value: Sendable>: Sendable {
    private var keys: [WordKey?]
    private var values: [Value?]
    private var mask: Int
    private var count = 0

    /// A table for about `capacity` words (more make it grow).
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = Array(repeating: nil, count: size)
        values = Array(repeating: nil, count: size)
        mask = size - 1
    }

    subscript(key: WordKey) -> Value? {
        get {
            var slot = key.slot & mask
            while let found = keys[slot] {
                if found == key { return values[slot] }
                slot = (slot + 1) & mask
            }
            return nil
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 2 > keys.count { grow() }
            var slot = key.slot & mask
            while let found = keys[slot], found != key { slot = (slot + 1) & mask }
            if keys[slot] == nil { count += 1 }
            keys[slot] = key
            values[slot] = newValue
        }
    }

    private mutating func grow() {
        var larger = WordTable(capacity: keys.count)
        for (key, value) in zip(keys, values) {
            if let key, let value { larger[key] = value }
        }
        self = larger
    }
}
