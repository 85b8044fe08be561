extension Files {
    /// What `read` reads of `path`, or `nil` when `path` does not exist; any other failure is a
    /// `FileError` naming `path`, with the fix `fix` gives for it.
    package static func unlessMissing<Value>(
        _ path: String, fix: (ReadFailure) -> String, _ read: () throws(ReadFailure) -> Value
    ) throws(FileError) -> Value? {
        do {
            return try read()
        } catch .missing {
            return nil
        } catch {
            throw FileError(path: path, problem: error.problem, fix: fix(error))
        }
    }
}
