import Glibc

extension Files {
    /// Where `path` leads when it is a symbolic link (or lies under one) that leaves `folder`:
    /// the resolved path, or `"(nowhere)"` for a link that leads nowhere; `nil` when it stays
    /// inside. A program's links may point at one another, never out of its folder: a link to
    /// /etc/shadow or /proc/self/environ would hand a case (or a report) what it points at.
    /// A folder that cannot be resolved holds nothing: the link is taken as leaving it.
    package static func escapingLink(_ path: String, folder: String) -> String? {
        guard let home = realPath(folder.isEmpty ? "." : folder) else { return realPath(path) ?? "(nowhere)" }
        guard let target = realPath(path) else {
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK ? "(nowhere)" : nil
        }
        return isWithin(target, folder: home) ? nil : target
    }
}
