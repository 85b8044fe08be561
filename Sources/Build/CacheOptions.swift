import Support

/// Where build products go and whether they are reused.
package struct CacheOptions: Sendable, Equatable {
    /// Reuse and store linked executables.
    package var enabled = true
    /// `--cache-dir`; otherwise `$XDG_CACHE_HOME/asmrun` or `~/.cache/asmrun`.
    package var directory: String?
    /// The size past which least-recently-used entries are evicted.
    package var maxBytes = 256 << 20

    package init(enabled: Bool = true, directory: String? = nil) {
        self.enabled = enabled
        self.directory = directory
    }

    /// The cache folder for an environment.
    package func root(environment: [String: String]) -> String? {
        let root: String
        if let directory {
            root = directory
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            root = xdg + "/asmrun"
        } else if let home = environment["HOME"], !home.isEmpty {
            root = home + "/.cache/asmrun"
        } else {
            return nil
        }
        // A hit runs the entry where it is, from the case's own folder: a relative path would
        // name nothing there.
        return root.hasPrefix("/") ? root : Files.currentDirectory + "/" + root
    }
}
