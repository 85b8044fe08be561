import Support

/// A quick look through a source's bytes before a check reads it properly: most programs never
/// name what the check is about, and are let go at the cost of one pass over their bytes.
package enum WordSearch {
    /// Whether `word` (lowercase ASCII letters) appears in `bytes`, in any case.
    static func contains(_ word: [UInt8], in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard !word.isEmpty, buffer.count >= word.count else { return false }
            for index in 0...(buffer.count - word.count) where buffer[index] | 0x20 == word[0] {
                var matches = true
                for offset in 1..<word.count where buffer[index + offset] | 0x20 != word[offset] {
                    matches = false
                    break
                }
                if matches { return true }
            }
            return false
        }
    }

    /// Whether any of `paths` (files that cannot be read are passed over) holds `word`.
    package static func anyContains(_ word: String, paths: [String]) -> Bool {
        let word = Array(word.utf8)
        return paths.contains { path in (try? Files.read(path)).map { contains(word, in: $0) } ?? false }
    }
}
