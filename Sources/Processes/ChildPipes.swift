import CAsmRunSpawn
import Glibc

/// The descriptors between asmrun and one child: the child's ends (dup'ed onto 0, 1, 2 and then
/// closed here) and asmrun's ends (read by the supervisor). All are close-on-exec.
struct ChildPipes {
    var childStdin: Int32 = -1
    var childStdout: Int32 = -1
    var childStderr: Int32 = -1
    var stdoutReader: Int32 = -1
    var stderrReader: Int32 = -1
    /// A case init's reports (`asmrun_case_report`), with namespaces of the case's own.
    var statusReader: Int32 = -1
    var statusWriter: Int32 = -1
    /// With `outputToFile`: the file both streams are written to (the child's stdout and stderr).
    var outputFile: Int32 = -1
    /// `childStdin` is the caller's (`InputSource.descriptor`): not closed here.
    private var stdinIsBorrowed = false

    init(options: LaunchOptions) throws {
        do {
            switch options.stdin {
            case .inherit: break
            case .empty: childStdin = try Self.openNull()
            case .bytes(let bytes) where bytes.isEmpty: childStdin = try Self.openNull()
            case .bytes(let bytes):
                // A file, as with `< NAME.in`: no pipe to feed, so no wakeups while the child reads.
                childStdin = bytes.withUnsafeBytes { asmrun_input_file($0.baseAddress, $0.count) }
                guard childStdin >= 0 else { throw LaunchError.spawnFailed("memfd", errno: errno) }
            case .descriptor(let descriptor): (childStdin, stdinIsBorrowed) = (descriptor, true)
            }
            if options.outputToFile {
                outputFile = asmrun_memfd("asmrun-output")
                guard outputFile >= 0 else { throw LaunchError.spawnFailed("memfd", errno: errno) }
                (childStdout, childStderr) = (outputFile, outputFile)
            } else {
                if options.stdout != .inherit { (stdoutReader, childStdout) = try Self.makePipe() }
                if options.stderr != .inherit { (stderrReader, childStderr) = try Self.makePipe() }
            }
            if options.confinement.caseNamespaces { (statusReader, statusWriter) = try Self.makePipe() }
        } catch {
            closeAll()
            throw error
        }
    }

    mutating func closeChildEnds() {
        if childStdin == Self.sharedNull || stdinIsBorrowed { childStdin = -1 }
        if childStdout == outputFile { childStdout = -1 }
        if childStderr == outputFile { childStderr = -1 }
        Self.close(&childStdin)
        Self.close(&childStdout)
        Self.close(&childStderr)
        Self.close(&statusWriter)
    }

    mutating func closeAll() {
        closeChildEnds()
        Self.close(&stdoutReader)
        Self.close(&stderrReader)
        Self.close(&statusReader)
        Self.close(&outputFile)
    }

    static func close(_ fd: inout Int32) {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard asmrun_pipe_cloexec(&fds) == 0 else {
            throw LaunchError.spawnFailed("pipe", errno: errno)
        }
        return (fds[0], fds[1])
    }

    /// /dev/null, opened once for every child with no input (each dup's it onto 0, or gets it
    /// through its warden's socket); -1 when it could not be, and each child then opens its own.
    private static let sharedNull = open("/dev/null", O_RDONLY | O_CLOEXEC)

    private static func openNull() throws -> Int32 {
        if sharedNull >= 0 { return sharedNull }
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LaunchError.spawnFailed("/dev/null", errno: errno) }
        return fd
    }
}
