import Glibc

/// A private directory under `$TMPDIR` (or `/tmp`) that is removed, whatever is in it.
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init(prefix: String = "run", environment: [String: String] = [:]) throws {
        let base = ScratchLocation.base(environment: environment)
        var template = Array("\(base)/asmrun-\(prefix)-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(
                path: base, problem: "cannot hold a temporary directory (\(errorText()))",
                fix: "set TMPDIR to a writable directory", category: .environment)
        }
        path = String(cString: created)
    }

    /// Removes the directory and everything below it, making unreadable folders writable first.
    package func remove() {
        Files.removeTree(path)
    }
}
