import Support

/// The x86 root file system qemu loads a dynamic program's loader and libc from (`-L PATH`).
package struct QemuSysroot: Sendable, Equatable {
    package let path: String
    /// The dynamic loader a libc program asks for, inside `path`.
    package let loader: String
    /// What to install when it is missing (`nil` for a folder the user chose).
    package let package: String?

    package init(path: String, loader: String, package: String?) {
        self.path = path
        self.loader = loader
        self.package = package
    }

    /// Whether the loader is there (following links: Debian's `lib64/` entry is one).
    package var isPresent: Bool { Files.exists(loader) }

    /// `-L PATH`; nothing for `/` (the machine's own libraries) or a folder that is absent, which
    /// static programs do not need (libc programs are checked with `isPresent` before they run).
    package var qemuArguments: [String] {
        path == "/" || !Files.isDirectory(path) ? [] : ["-L", path]
    }
}
