import Glibc
import Synchronization

/// Looks executables up on a search path without spawning anything; each name is looked up
/// once per locator (a suite builds thousands of programs with the same nasm and ld).
package struct ExecutableLocator: Sendable {
    let searchPath: [String]
    private let found = Memo()

    private final class Memo: Sendable {
        let paths = Mutex<[String: String?]>([:])
    }

    package init(path: String?) {
        // Cut by hand: the generic `split` cost a single run 6 % of its instructions, most of it
        // the run time making its types' metadata at their first use.
        // A folder named twice is searched once: the second time finds nothing the first did not.
        var directories: [String] = []
        var directory: [UInt8] = []
        func add() {
            let name = String(decoding: directory, as: UTF8.self)
            if !name.isEmpty, !directories.contains(name) { directories.append(name) }
            directory.removeAll(keepingCapacity: true)
        }
        for byte in (path ?? "/usr/local/bin:/usr/bin:/bin").utf8 {
            if byte == UInt8(ascii: ":") { add() } else { directory.append(byte) }
        }
        add()
        searchPath = directories
    }

    /// The full path of `name`, or `nil`; a name with a slash is checked as it is.
    package func find(_ name: String) -> String? {
        if let known = found.paths.withLock({ $0[name] }) { return known }
        let path = search(name)
        found.paths.withLock { $0[name] = path }
        return path
    }

    private func search(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in searchPath where !directory.isEmpty {
            let candidate = directory + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        return nil
    }

    package func find(anyOf names: [String]) -> String? {
        for name in names {
            if let path = find(name) { return path }
        }
        return nil
    }
}
