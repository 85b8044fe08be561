import Processes

/// What a case's `status:` line accepts: one status (`exit 0`, `signal SIGSEGV`, `timeout`),
/// a set of them (`exit 0 | exit 1`), any exit code (`exit any`), or anything the program can
/// do by itself (`any`: every exit and every signal, but not a timeout, which is asmrun's
/// doing; write `any | timeout` to accept that too).
package struct ExpectedStatus: Sendable, Equatable, CustomStringConvertible {
    /// One alternative of the set.
    enum Alternative: Sendable, Equatable {
        case status(Termination)
        case anyExit
        case any
    }

    /// At least one; the status is accepted when any of them accepts it.
    let alternatives: [Alternative]

    /// Exactly one status.
    init(_ status: Termination) { alternatives = [.status(status)] }

    init(alternatives: [Alternative]) { self.alternatives = alternatives }

    /// `any`.
    static let any = ExpectedStatus(alternatives: [.any])

    /// Whether a program that ended with `status` meets the expectation.
    package func accepts(_ status: Termination) -> Bool {
        alternatives.contains { alternative in
            switch alternative {
            case .status(let expected): expected == status
            case .anyExit: if case .exited = status { true } else { false }
            case .any: status != .timedOut
            }
        }
    }

    /// The one status it names, when it names exactly one.
    var single: Termination? {
        guard alternatives.count == 1, case .status(let status) = alternatives[0] else { return nil }
        return status
    }

    /// The `.expect` form: `exit 0 | exit 1`.
    package var description: String {
        alternatives.map { alternative in
            switch alternative {
            case .status(let status): status.summary
            case .anyExit: "exit any"
            case .any: "any"
            }
        }.joined(separator: " | ")
    }

    /// Parses `exit 3`, `signal SIGSEGV`, `timeout`, `exit any`, `any`, or several of them
    /// separated by `|`; `nil` when any part is none of these.
    static func parse(_ text: String) -> ExpectedStatus? {
        if let code = plainExit(text) { return ExpectedStatus(alternatives: [.status(.exited(code))]) }
        var alternatives: [Alternative] = []
        for part in text.split(separator: "|", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ")
            let alternative: Alternative?
            switch (words.first, words.count) {
            case ("any", 1): alternative = .any
            case ("exit", 2) where words[1] == "any": alternative = .anyExit
            default: alternative = ExpectationFile.parseStatus(words.joined(separator: " ")).map(Alternative.status)
            }
            guard let alternative else { return nil }
            if !alternatives.contains(alternative) { alternatives.append(alternative) }
        }
        return alternatives.isEmpty ? nil : ExpectedStatus(alternatives: alternatives)
    }

    /// `exit N` exactly, N from 0 to 255 in at most three digits: nearly every status line, read
    /// from its bytes (the splits and joins of the general case were a third of a case's parse).
    private static func plainExit(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            guard bytes.count >= 6, bytes.count <= 8, bytes.starts(with: "exit ".utf8) else { return nil }
            var value: Int32 = 0
            for byte in bytes[5...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value <= 255 ? value : nil
        }
    }
}
