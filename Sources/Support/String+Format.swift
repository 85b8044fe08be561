import Glibc

extension String {
    /// One number formatted as printf(3) does (`%g`, `%.2f`): Foundation's `String(format:)`,
    /// which FoundationEssentials lacks, for the single-number uses asmrun has.
    package init(format: String, _ value: Double) {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = withVaList([value]) { arguments in
            Int(vsnprintf(&buffer, buffer.count, format, arguments))
        }
        if length >= buffer.count {
            buffer = [CChar](repeating: 0, count: length + 1)
            _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
