import Foundation

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
public struct ExpectationFile: Sendable, Equatable {
    /// Comment lines before the first case, kept as they are.
    public var header: [String] = []
    /// The cases in file order.
    public var cases: [TestCase] = []

    /// The header written into new files.
    public static let defaultHeader = [
        "# asmrun expectations: `asmrun test --update` records results; edit inputs and holes by hand."
    ]

    /// Creates an empty file.
    public init() {}

    /// `asm/hello.expect` for `asm/hello.asm`.
    public static func path(for source: String) -> String {
        (source as NSString).deletingPathExtension + ".expect"
    }

    /// Reads a file; a missing file is `nil`, a malformed one an error naming its line.
    public static func load(_ path: String) throws -> ExpectationFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            throw SourceError(path: path, problem: "is not a regular file", fix: "replace it with an expectation file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SourceError(path: path, problem: "cannot be read", fix: "check its permissions")
        }
        guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
            throw SourceError(path: path, problem: "is not UTF-8 text", fix: "write non-text bytes as `~` lines with \\xNN escapes")
        }
        return try ExpectationFile(parsing: text, path: path)
    }

    /// Writes the file atomically.
    public func save(to path: String) throws {
        try AtomicFile.write(Array(serialized().utf8), to: path)
    }
}
