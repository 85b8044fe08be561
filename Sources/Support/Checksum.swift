/// A 64-bit checksum, eight bytes at a time: a cache entry's, for telling that the file changed
/// behind asmrun's back (a disk, a copy, a hand). Not a defence against someone who writes the
/// cache: that is the user, who could recompute any digest. SHA-256 of an entry was a tenth of a
/// millisecond per cold program, on the thread that writes entries while the workers build.
package enum Checksum {
    /// The checksum of `bytes` as 16 lowercase hex digits.
    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String { hex(of(bytes)) }

    /// `value` as 16 lowercase hex digits, zero-padded (`String(_:radix:)` and padding took half
    /// of the time an entry's trailer took).
    package static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { text in
            let digits: StaticString = "0123456789abcdef"
            for nibble in 0..<16 { text[nibble] = digits.utf8Start[Int((value >> UInt64(60 - 4 * nibble)) & 0xf)] }
            return 16
        }
    }

    /// Each word is mixed in with a multiply and a shift (both invertible, so a changed word
    /// changes the state), then the last bytes, then the length.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state: UInt64 = 0x243f_6a88_85a3_08d3
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                state = (state ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
                state ^= state >> 29
                offset += 8
            }
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
        state = (state ^ tail) &* 0xbf58_476d_1ce4_e5b9
        state ^= state >> 31
        state = (state ^ UInt64(bytes.count)) &* 0x94d0_49bb_1331_11eb
        return state ^ (state >> 29)
    }
}
