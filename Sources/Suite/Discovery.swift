import Glibc
import Support

/// Finds the `.asm` files under the paths given to `asmrun test`: folders recursively (symlinks
/// followed once, loops reported), files as named, in a stable sorted order.
struct Discovery {
    /// The sources found and the problems met, each naming its path.
    struct Found {
        var sources: [String] = []
        var problems: [FileError] = []
        var missing = 0
    }

    static func find(_ paths: [String]) -> Found {
        var found = Found()
        var seenFiles = Set<String>()
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let reason = errno == ELOOP ? "is a symlink loop" : "does not exist"
                found.missing += 1
                found.problems.append(FileError(path: path, problem: reason, fix: "name an existing .asm file or folder"))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var visited = Set<[UInt64]>()
                walk(path, &found, &visited)
            } else {
                found.sources.append(path)
            }
        }
        found.sources = found.sources.filter { seenFiles.insert(standardize($0)).inserted }
        return found
    }

    private static func walk(_ directory: String, _ found: inout Found, _ visited: inout Set<[UInt64]>) {
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else {
            found.problems.append(
                FileError(path: directory, problem: "leads back to a folder already searched (symlink loop)", fix: "remove the link"))
            return
        }
        let names: [String]
        do {
            names = try Files.list(directory).sorted()
        } catch {
            found.problems.append(FileError(path: directory, problem: "cannot be read", fix: "check its permissions"))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
            var entry = stat()
            guard stat(path, &entry) == 0 else {
                if errno == ELOOP || name.hasSuffix(".asm") {
                    found.problems.append(
                        FileError(path: path, problem: errno == ELOOP ? "is a symlink loop" : "is a broken link", fix: "remove the link"))
                }
                continue
            }
            if (entry.st_mode & S_IFMT) == S_IFDIR {
                walk(path, &found, &visited)
            } else if name.hasSuffix(".asm") {
                // Kept even when not a regular file, so that SourceFile names the problem.
                found.sources.append(path)
            }
        }
    }

    private static let workingDirectory = Files.currentDirectory

    /// An absolute path with `.`, `..` and repeated slashes resolved lexically: a cheap key that
    /// names a file the same way however it was reached (no readlink per component).
    static func standardize(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
