import Support

/// A program's `.expect` file: its cases with their inputs and recorded results.
///
///     # comments before the first case are kept
///     [case two-words]
///     args: one "two words"
///     env: GREETING=hi
///     stdin:
///     | a line of input
///     stdout:
///     | Hello, [..]!
///     stderr:
///     ~ bytes\x00 that are not printable
///     \ no newline at end
///     status: exit 0
///     stdout @qemu:
///     | what qemu prints instead
///
/// `|` lines are text, `~` lines are escaped (`\r`, `\t`, `\e`, `\\`, `\xNN`).
package struct ExpectationFile: Sendable, Equatable {
    /// Comment lines before the first case, kept as they are.
    package var header: [String] = []
    /// The cases in file order.
    package var cases: [TestCase] = []

    /// The header written into new files.
    static let defaultHeader = [
        "# asmrun expectations: `asmrun test --update` records results; edit inputs and holes by hand."
    ]

    /// The most a case can be worth (`points:`).
    static let maximumPoints = 1000.0

    package init() {}

    /// `asm/hello.expect` for `asm/hello.asm`.
    package static func path(for source: String) -> String {
        PathName.removingExtension(source) + ".expect"
    }

    /// Reads a file; a missing file is `nil`, a malformed one an error naming its line.
    package static func load(_ path: String) throws -> ExpectationFile? {
        let read = try Files.unlessMissing(path, fix: { $0 == .denied ? "check its permissions" : "replace it with an expectation file" }) {
            () throws(Files.ReadFailure) in try Files.read(path)
        }
        guard let bytes = read else { return nil }
        return try parse(bytes, path: path)
    }

    /// Parses the bytes of a `.expect` file; an error names `path` and the line.
    package static func parse(_ bytes: [UInt8], path: String) throws -> ExpectationFile {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = Self.firstInvalidLine(bytes)
            throw FileError(
                path: path, line: line, problem: "is not UTF-8 text", fix: "write non-text bytes as `~` lines with \\xNN escapes")
        }
        return try ExpectationFile(parsing: text, path: path)
    }

    private static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        for (index, line) in bytes.split(separator: 0x0a, omittingEmptySubsequences: false).enumerated()
        where String(validating: line, as: UTF8.self) == nil {
            return index + 1
        }
        return 1
    }

    /// Writes the file atomically.
    package func save(to path: String) throws {
        try AtomicFile.write(Array(serialized().utf8), to: path)
    }
}
