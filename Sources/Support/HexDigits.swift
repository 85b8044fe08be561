/// Hexadecimal digits as asmrun reads them: ASCII only, no sign, no prefix (`UInt8(_:radix:)`
/// would take a sign; `Character.hexDigitValue`, full-width digits).
package enum HexDigits {
    /// The value of one digit (`0`–`9`, `a`–`f`, `A`–`F`); `nil` for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `7f454c46` as bytes; `nil` for an odd number of digits or a byte that is not one.
    package static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
