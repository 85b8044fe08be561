import Support
import Testing

/// The one hex reader (binfmt magic, `\xNN` escapes, JSON's `\uNNNN`).
struct HexDigitsTests {
    @Test func digitsAreASCIIOnly() {
        #expect(HexDigits.value(UInt8(ascii: "7")) == 7 && HexDigits.value(UInt8(ascii: "f")) == 15)
        #expect(HexDigits.value(UInt8(ascii: "F")) == 15)
        #expect(HexDigits.value(UInt8(ascii: "g")) == nil && HexDigits.value(UInt8(ascii: "-")) == nil)
        #expect(HexDigits.value(0xef) == nil)
    }

    @Test func bytesNeedPairsOfDigits() {
        #expect(HexDigits.bytes("7f454C46") == [0x7f, 0x45, 0x4c, 0x46])
        #expect(HexDigits.bytes("") == [])
        #expect(HexDigits.bytes("7f4") == nil && HexDigits.bytes("+7f") == nil && HexDigits.bytes("7g") == nil)
    }
}
