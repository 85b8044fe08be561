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
        try readWithStatus(path).bytes
    }

    /// The bytes of the regular file at `path` and its status, taken on the same descriptor.
    /// `growing: false` for a file nothing appends to (a cache entry): no probe past its size.
    package static func readWithStatus(_ path: String, growing: Bool = true) throws(ReadFailure) -> (bytes: [UInt8], status: stat) {
        let (fd, info) = try openRegular(path)
        defer { close(fd) }
        // Exactly the size fstat gives, then one probe for bytes appended since: a suite holds
        // every source it read, so no slack capacity per file.
        let size = Int(info.st_size)
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { break }
                count += got
            }
        }
        if failure != 0 { throw .failed(failure) }
        // Bytes appended since fstat (and files whose size says nothing, like /proc's).
        var more = growing || bytes.count < size
        while more {
            var failed: Int32 = 0
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { probe in
                var got: Int
                repeat { got = Glibc.read(fd, probe.baseAddress!, probe.count) } while got < 0 && errno == EINTR
                if got < 0 { failed = errno }
                if got > 0 { bytes += probe[0..<got] } else { more = false }
            }
            if failed != 0 { throw .failed(failed) }
        }
        return (bytes, info)
    }

    /// Hands the regular file at `path` to `body` in chunks of at most `chunk` bytes, so a file
    /// of any size passes through a small buffer; returns its status as it was opened.
    @discardableResult
    package static func stream(
        _ path: String, chunk: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(ReadFailure) -> stat {
        let (fd, status) = try openRegular(path)
        defer { close(fd) }
        // On the heap: worker threads have small stacks. No bigger than the file (and one byte
        // to see its end): a megabyte for a 200-byte source was an mmap and a munmap, whose TLB
        // shootdown interrupts every CPU asmrun's threads ran on, per source.
        let size = Swift.max(1, Swift.min(chunk, Swift.max(4096, Int(Swift.max(0, status.st_size)) + 1)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = Glibc.read(fd, buffer.baseAddress!, size)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .failed(errno) }
            if got == 0 { return status }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
    }

    /// The SHA-256 of the regular file at `path`, read in chunks.
    package static func digest(_ path: String) throws(ReadFailure) -> String {
        var digest = SHA256()
        try stream(path) { digest.update($0) }
        return digest.hexDigest()
    }

    /// Opens a regular file for reading, with its status; a FIFO or device is refused, not waited on.
    private static func openRegular(_ path: String) throws(ReadFailure) -> (fd: Int32, status: stat) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .missing
            case EACCES, EPERM: throw .denied
            case let code: throw .failed(code)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .failed(errno)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (fd, info)
        case S_IFDIR:
            close(fd)
            throw .directory
        default:
            close(fd)
            throw .notRegular
        }
    }

    /// Whether `path` names a regular file (following links).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `directory` (not `.` and `..`), in no particular order.
    package static func list(_ directory: String) throws(ReadFailure) -> [String] {
        try listEntries(directory).map(\.name)
    }

    /// The names in `directory` (without `.` and `..`), each with whether the directory entry says
    /// it is a regular file (not a link, not a folder): such a name needs no `stat` to be told.
    package static func listEntries(_ directory: String) throws(ReadFailure) -> [(name: String, regularFile: Bool)] {
        guard let handle = opendir(directory) else {
            switch errno {
            case ENOENT: throw .missing
            case EACCES, EPERM: throw .denied
            case let code: throw .failed(code)
            }
        }
        defer { closedir(handle) }
        var entries: [(name: String, regularFile: Bool)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { entries.append((name, entry.pointee.d_type == UInt8(DT_REG))) }
        }
        return entries
    }

    /// Whether anything exists at `path` (following links).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates `path` and any missing parents; true when it is a directory afterwards.
    package static func makeDirectories(_ path: String) -> Bool { makeDirectory(path) || isDirectory(path) }

    /// Creates `path`, and any missing parents; true only when this call made `path` itself (not
    /// when it was there already, or another process made it meanwhile).
    package static func makeDirectory(_ path: String) -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        let parent = PathName.directory(of: path)
        guard errno == ENOENT, !parent.isEmpty, parent != path, makeDirectories(parent) else { return false }
        return mkdir(path, 0o755) == 0
    }

    /// Whether `first` and `second` name the same file (following links; hard links included).
    /// Whether descriptors `first` and `second` are open on the same file (a terminal, a pipe).
    package static func sameOpenFile(_ first: Int32, _ second: Int32) -> Bool {
        var one = stat()
        var two = stat()
        return fstat(first, &one) == 0 && fstat(second, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
    }

    package static func sameFile(_ first: String, _ second: String) -> Bool {
        var one = stat()
        var two = stat()
        return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
    }

    /// Whether `path` names a directory (following links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The bytes an unprivileged process may still write on the file system holding `path`.
    package static func freeBytes(_ path: String) -> UInt64? {
        var info = statvfs()
        return statvfs(path, &info) == 0 ? UInt64(info.f_bavail) * UInt64(info.f_frsize) : nil
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
