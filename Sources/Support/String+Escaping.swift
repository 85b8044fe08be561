extension String {
    /// This text with every Unicode scalar `table` names replaced by its entry, and every other
    /// scalar for which `other` returns text replaced by that. Scalar by scalar: as Characters,
    /// "\r\n" is one and would match neither "\r" nor "\n".
    package func escapingScalars(
        _ table: [Unicode.Scalar: String], other: (Unicode.Scalar) -> String? = { _ in nil }
    ) -> String {
        var output = ""
        for scalar in unicodeScalars {
            if let replacement = table[scalar] ?? other(scalar) {
                output += replacement
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
