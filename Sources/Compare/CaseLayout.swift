/// Comment lines written inside a case, kept by `--update`. Each belongs to the line after it:
/// a field (`stdout`, `status @qemu`, `file out.txt`, the second `env` is `env 2`), the case's
/// `[case NAME]` line (comments between two cases go with the second), or the case's end.
struct CaseComments: Sendable, Equatable {
    /// The key of the `[case NAME]` line.
    static let caseLine = "[case]"
    /// The key of the end of the case (comments after its last field, in the last case).
    static let end = ""

    /// Comment lines by the key of the line they precede, as written.
    var before: [String: [String]] = [:]

    init() {}

    var isEmpty: Bool { before.isEmpty }
}

/// Where a case and each of its fields are in its `.expect` file (1-based lines), so a CI
/// annotation can point at the field that failed. Never part of a case's equality: the same
/// case read from an edited file is the same case.
package struct CaseLines: Sendable, Equatable {
    /// The `[case NAME]` line; 0 for a case that is in no file.
    package var header = 0
    /// Field lines by key (`stdout`, `stdout @qemu`, `status`, `file out.txt`, `points`).
    package var fields: [String: Int] = [:]

    package init() {}

    package static func == (_: CaseLines, _: CaseLines) -> Bool { true }

    /// The line of the field `stream` for `runner` (its override, else the default), else the
    /// case's own line; `nil` for a case that is in no file.
    package func line(of stream: String?, runner: String) -> Int? {
        guard header > 0 else { return nil }
        guard let stream else { return header }
        return fields["\(stream) @\(runner)"] ?? fields[stream] ?? header
    }
}
