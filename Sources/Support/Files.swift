import Glibc

/// Reading the files asmrun is given, in one open: the file is checked on its descriptor (a FIFO
/// is refused, not waited on) and read whole.
package enum Files {
    /// Why a file could not be read.
    package enum ReadFailure: Error, Equatable {
        case missing
        case directory
        /// A FIFO, socket or device: reading it could block or never end.
        case notRegular
        case denied
        case failed(Int32)

        /// A phrase that follows the path: `no such file`, `is a directory`, …
        package var problem: String {
            switch self {
            case .missing: "no such file"
            case .directory: "is a directory"
            case .notRegular: "is not a regular file"
            case .denied: "cannot be read (permission denied)"
            case .failed(let code): "cannot be read (\(errorText(code)))"
            }
        }
    }

    /// The bytes of the regular file at `path`.
    package static func read(_ path: String) throws(ReadFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .missing
            case EACCES, EPERM: throw .denied
            case let code: throw .failed(code)
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failed(errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .directory
        default: throw .notRegular
        }
        // Exactly the size fstat gives, then one probe for bytes appended since: a suite holds
        // every source it read, so no slack capacity per file.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .failed(errno) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        var probe = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = probe.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .failed(errno) }
            if count == 0 { return bytes }
            bytes += probe.prefix(count)
        }
    }

    /// Whether `path` names a regular file (following links).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `directory` (not `.` and `..`), in no particular order.
    package static func list(_ directory: String) throws(ReadFailure) -> [String] {
        guard let handle = opendir(directory) else {
            switch errno {
            case ENOENT: throw .missing
            case EACCES, EPERM: throw .denied
            case let code: throw .failed(code)
            }
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether anything exists at `path` (following links).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates `path` and any missing parents; true when it is a directory afterwards.
    package static func makeDirectories(_ path: String) -> Bool {
        if mkdir(path, 0o755) == 0 || isDirectory(path) { return true }
        let parent = PathName.directory(of: path)
        guard errno == ENOENT, !parent.isEmpty, parent != path, makeDirectories(parent) else { return false }
        return mkdir(path, 0o755) == 0 || isDirectory(path)
    }

    /// Whether `path` names a directory (following links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The process's working directory.
    package static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes `path` and everything below it without following links, making folders a program
    /// left without permissions writable first.
    package static func removeTree(_ path: String) {
        // Most case folders are left empty: one rmdir, no directory walk.
        if rmdir(path) == 0 || errno == ENOENT { return }
        if errno == ENOTDIR {
            unlink(path)
            return
        }
        chmod(path, 0o700)
        for name in (try? list(path)) ?? [] {
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                removeTree(child)
            } else {
                unlink(child)
            }
        }
        rmdir(path)
    }
}
