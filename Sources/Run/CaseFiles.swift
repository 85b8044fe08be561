import Glibc
import Support

/// The files around a case: put into its folder before it runs, collected after it ran.
enum CaseFiles {
    /// Copies the tree of `folder` (when there is one) into `workspace`, then writes `files`
    /// (relative paths); returns every input as placed, by relative path. Every file and folder
    /// placed is given to the case's user (`handOver`), which may change or remove it.
    /// `stop` says the run is ending: a long copy ends with `FileCopyStopped`.
    static func place(
        folder: String?, files: [(name: String, bytes: [UInt8])], in workspace: String, stop: @escaping () -> Bool = { false },
        handOver: (String) throws -> Void
    ) throws -> [String: [UInt8]] {
        var placed: [String: [UInt8]] = [:]
        if let folder {
            var copy = TreeCopy(source: folder, target: workspace, stop: stop)
            try copy.run()
            placed = copy.placed
        }
        for (name, bytes) in files {
            try write(bytes, to: workspace + "/" + name, name: name)
            placed[name] = bytes
        }
        var handed: Set<String> = []
        for name in placed.keys {
            var path = name
            while !path.isEmpty, handed.insert(path).inserted {
                try handOver(workspace + "/" + path)
                path = PathName.directory(of: path)
            }
        }
        return placed
    }

    /// Regular files below `workspace` that are new or differ from `inputs`, leaving out `skip`;
    /// each at most `limit` bytes (a longer one is cut and named in `oversized`).
    static func collect(
        in workspace: String, inputs: [String: [UInt8]], skip: Set<String>, limit: Int
    ) -> (files: [String: [UInt8]], oversized: [String]) {
        var files: [String: [UInt8]] = [:]
        var oversized: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? workspace : workspace + "/" + relative
            chmod(directory, 0o700)
            for name in (try? Files.list(directory)) ?? [] {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(workspace + "/" + path, &info) == 0, !skip.contains(path) else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG:
                    chmod(workspace + "/" + path, 0o600)
                    guard var bytes = try? Files.read(workspace + "/" + path), bytes != inputs[path] else { continue }
                    if bytes.count > limit {
                        bytes.removeLast(bytes.count - limit)
                        oversized.append(path)
                    }
                    files[path] = bytes
                default: continue
                }
            }
        }
        return (files, oversized.sorted())
    }

    static func write(_ bytes: [UInt8], to path: String, name: String) throws {
        let parent = PathName.directory(of: path)
        guard Files.makeDirectories(parent), FileCopy.write(bytes, to: path, mode: 0o644) else {
            throw FileError(
                path: name, problem: "cannot be put into the case folder (\(errorText()))", fix: "check the scratch folder (TMPDIR)")
        }
    }
}
