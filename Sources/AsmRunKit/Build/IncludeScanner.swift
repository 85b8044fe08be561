import Foundation

/// Finds the files a program pulls in with `%include` and `incbin`, resolved the way nasm does
/// (its working directory, then each `-I` directory), so the build cache can key on them.
/// nasm 2.16's own `-MD` output omits includes, and `-M` costs a process per program.
struct IncludeScanner {
    /// One dependency: the name as written and the file it resolved to, if any.
    struct Dependency: Equatable {
        var name: String
        var path: String?
    }

    let searchDirectories: [String]

    func dependencies(of source: SourceFile, text: String) -> [Dependency] {
        var found: [Dependency] = []
        var visited: Set<String> = [source.path]
        var queue = Self.includedNames(in: text)
        while !queue.isEmpty && found.count < 1000 {
            let name = queue.removeFirst()
            let path = resolve(name)
            found.append(Dependency(name: name, path: path))
            guard let path, visited.insert(path).inserted,
                let data = FileManager.default.contents(atPath: path), !data.prefix(4096).contains(0)
            else { continue }
            queue += Self.includedNames(in: String(decoding: data, as: UTF8.self))
        }
        return found
    }

    private func resolve(_ name: String) -> String? {
        let candidates =
            name.hasPrefix("/")
            ? [name]
            : [name]
                + searchDirectories.map { directory in
                    directory.hasSuffix("/") ? directory + name : directory + "/" + name
                }
        return candidates.first { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// The quoted names after `%include` and `incbin` in assembly text.
    static func includedNames(in text: String) -> [String] {
        var names: [String] = []
        for line in text.split(separator: "\n") {
            let lower = line.lowercased()
            for keyword in ["%include", "incbin"] {
                guard let range = lower.range(of: keyword) else { continue }
                let before = lower[..<range.lowerBound]
                if before.contains(";") { continue }
                let offset = lower.distance(from: lower.startIndex, to: range.upperBound)
                let rest = line.dropFirst(offset).drop(while: { $0 == " " || $0 == "\t" })
                guard let open = rest.first, "\"'<".contains(open) else { continue }
                let close: Character = open == "<" ? ">" : open
                let body = rest.dropFirst()
                if let end = body.firstIndex(of: close) { names.append(String(body[..<end])) }
            }
        }
        return names
    }
}
