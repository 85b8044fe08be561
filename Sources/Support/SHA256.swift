import CAsmRunHash

/// SHA-256 (FIPS 180-4), for content-addressing build products; no package provides it here.
/// Whole 64-byte blocks are compressed straight from the caller's buffer: by the processor's
/// SHA-256 instructions where it has them (`asmrun_sha256_blocks`, a tenth of the instructions),
/// else here, with the message schedule on the stack.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    /// The bytes of an unfinished block, in place: a key is a few dozen short fields, and an
    /// array here was an allocation and a bounds-checked append for each.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var length: UInt64 = 0
    private let processorInstructions: Bool

    /// A digest; `processorInstructions: false` always compresses in Swift (for the tests that
    /// hold both ways to the same results).
    package init(processorInstructions: Bool = true) {
        self.processorInstructions = processorInstructions
    }

    /// Adds bytes.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ update(buffer: UnsafeRawBufferPointer($0)) }) { return done }
        update(Array(bytes))
    }

    /// Adds the bytes of a buffer.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        update(buffer: buffer)
    }

    /// Adds a string's UTF-8 bytes and a separator, so fields cannot run into each other.
    package mutating func update(field: String) {
        var text = field
        text.withUTF8 { update(buffer: UnsafeRawBufferPointer($0)) }
        var separator: UInt8 = 0
        withUnsafeBytes(of: &separator) { update(buffer: $0) }
    }

    private mutating func update(buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if pendingCount > 0 || buffer.count < 64 {
            let taken = min(64 - pendingCount, buffer.count)
            withUnsafeMutableBytes(of: &block) { pending in
                pending.baseAddress!.advanced(by: pendingCount).copyMemory(from: base, byteCount: taken)
            }
            pendingCount += taken
            offset = taken
            guard pendingCount == 64 else { return }
            compressPending()
        }
        let blocks = (buffer.count - offset) / 64
        if blocks > 0 {
            compress(base + offset, blocks: blocks)
            offset += 64 * blocks
        }
        if offset < buffer.count {
            withUnsafeMutableBytes(of: &block) { pending in
                pending.baseAddress!.copyMemory(from: base + offset, byteCount: buffer.count - offset)
            }
            pendingCount = buffer.count - offset
        }
    }

    /// Compresses the full pending block.
    private mutating func compressPending() {
        var full = block
        withUnsafeBytes(of: &full) { compress($0.baseAddress!, blocks: 1) }
        pendingCount = 0
    }

    /// The digest as 64 lowercase hex digits.
    package mutating func hexDigest() -> String {
        let bitLength = length &* 8
        // The padding: 0x80, zeros to 56 bytes into a block, the length in bits, big-endian.
        var padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0x80, 0, 0, 0, 0, 0, 0, 0, 0)
        let zeros = (pendingCount < 56 ? 56 : 120) - pendingCount
        withUnsafeBytes(of: &padding) { update(buffer: UnsafeRawBufferPointer(rebasing: $0[0..<zeros])) }
        var bits = bitLength.bigEndian
        withUnsafeBytes(of: &bits) { update(buffer: $0) }
        let words = state
        return String(unsafeUninitializedCapacity: 64) { text in
            let digits: StaticString = "0123456789abcdef"
            withUnsafeBytes(of: words) { raw in
                for index in 0..<8 {
                    let word = raw.load(fromByteOffset: index * 4, as: UInt32.self)
                    for nibble in 0..<8 {
                        text[index * 8 + nibble] = digits.utf8Start[Int((word >> UInt32(28 - 4 * nibble)) & 0xf)]
                    }
                }
            }
            return 64
        }
    }

    /// The hex digest of some bytes.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var digest = SHA256()
        digest.update(bytes)
        return digest.hexDigest()
    }

    private mutating func compress(_ blocks: UnsafeRawPointer, blocks count: Int) {
        let done =
            processorInstructions
            && withUnsafeMutableBytes(of: &state) { words in
                asmrun_sha256_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self), blocks, count) != 0
            }
        if done { return }
        for index in 0..<count { compress(blocks + 64 * index) }
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                let base = block + 4 * i
                w[i] =
                    UInt32(base.load(as: UInt8.self)) << 24 | UInt32(base.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | UInt32(base.load(fromByteOffset: 2, as: UInt8.self)) << 8 | UInt32(base.load(fromByteOffset: 3, as: UInt8.self))
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            let k = asmrun_sha256_round_constants()!
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choose = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choose &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }

    @inline(__always)
    private func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
