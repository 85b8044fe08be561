import Glibc
import Support

/// A `.files` copy ended because the run is ending (Ctrl-C, SIGTERM).
struct FileCopyStopped: Error {}

/// Copies a program's `.files` folder into a case's folder: links are followed only within the
/// program's folder, never round a loop, and the copy stops at `maximumEntries` files and
/// folders or `maximumBytes`, with one line naming the folder and the bound.
struct TreeCopy {
    /// The most files and folders a `.files` folder may hold.
    static let maximumEntries = 4096
    /// The most bytes its files may add up to.
    static let maximumBytes = 64 << 20

    let source: String
    let target: String
    let stop: () -> Bool
    private(set) var placed: [String: [UInt8]] = [:]
    private var entries = 0
    private var bytes = 0
    /// The folders copied so far, by device and inode: a link to one of them is a loop.
    private var folders: Set<[UInt64]> = []

    init(source: String, target: String, stop: @escaping () -> Bool) {
        self.source = source
        self.target = target
        self.stop = stop
    }

    mutating func run() throws {
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? source : source + "/" + relative
            var info = stat()
            guard stat(directory, &info) == 0 else { continue }
            guard folders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else {
                throw FileError(
                    path: directory, problem: "is a symbolic link to a folder copied already (a loop, or a second name): not copied",
                    fix: "link to files, or to a folder once")
            }
            for name in (try? Files.list(directory)) ?? [] where !name.hasPrefix(".") {
                if stop() { throw FileCopyStopped() }
                let path = relative.isEmpty ? name : relative + "/" + name
                try count(path)
                // Links may point at the program's own files, never out of its folder.
                if let target = Files.escapingLink(source + "/" + path, folder: PathName.directory(of: source)) {
                    throw FileError(
                        path: source + "/" + path,
                        problem: "is a symbolic link out of the program's folder (to \(target.displayEscaped)): not copied",
                        fix: "put the file itself there")
                }
                if Files.isDirectory(source + "/" + path) {
                    pending.append(path)
                } else {
                    try copyFile(path)
                }
            }
        }
    }

    private mutating func count(_ path: String) throws {
        entries += 1
        guard entries <= Self.maximumEntries else { throw tooLarge("\(Self.maximumEntries) files and folders") }
    }

    private mutating func copyFile(_ path: String) throws {
        var info = stat()
        guard stat(source + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        bytes += Int(info.st_size)
        guard bytes <= Self.maximumBytes else { throw tooLarge("\(Self.maximumBytes >> 20) MiB") }
        guard let content = try? Files.read(source + "/" + path) else { return }
        bytes += max(0, content.count - Int(info.st_size))
        guard bytes <= Self.maximumBytes else { throw tooLarge("\(Self.maximumBytes >> 20) MiB") }
        try CaseFiles.write(content, to: target + "/" + path, name: path)
        placed[path] = content
    }

    private func tooLarge(_ bound: String) -> FileError {
        FileError(
            path: source, problem: "holds more than \(bound) to copy into every case: not copied",
            fix: "keep a program's .files folder within \(Self.maximumEntries) files and folders and \(Self.maximumBytes >> 20) MiB")
    }
}
