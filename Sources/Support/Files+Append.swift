import Glibc

extension Files {
    /// Appends `bytes` to the file at `path` (created when missing) in one `O_APPEND` write, as
    /// GitHub's `$GITHUB_STEP_SUMMARY` expects: what earlier steps wrote is kept.
    package static func append(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FileError(
                path: path, problem: "cannot be opened for appending (\(errorText()))",
                fix: "check that its folder exists and is writable")
        }
        defer { close(fd) }
        guard writeAll(bytes, to: fd) else {
            throw FileError(
                path: path, problem: "cannot be appended to (\(errorText()))", fix: "check the disk space")
        }
    }
}
