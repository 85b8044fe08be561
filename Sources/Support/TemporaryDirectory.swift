import Foundation
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
        Self.removeTree(path)
    }

    /// Removes `path` recursively; a program may have left folders without write permission.
    package static func removeTree(_ path: String) {
        // Most case folders are left empty: one rmdir, no directory walk.
        if rmdir(path) == 0 || errno == ENOENT { return }
        let manager = FileManager.default
        if (try? manager.removeItem(atPath: path)) != nil { return }
        if let walker = manager.enumerator(atPath: path) {
            for case let relative as String in walker {
                chmod(path + "/" + relative, 0o700)
            }
        }
        chmod(path, 0o700)
        try? manager.removeItem(atPath: path)
    }
}
