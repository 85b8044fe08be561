import Support

/// A process to start, as a plain value: what `nasm`, `ld`, `cc`, qemu and programs are built as.
package struct Command: Sendable, Equatable, CustomStringConvertible {
    /// A path, or a bare name looked up in `PATH`.
    package var executable: String
    /// The arguments after `argv[0]`.
    package var arguments: [String]
    /// Replaces the whole environment when set; `nil` inherits asmrun's.
    package var environment: [String: String]?
    /// The child's working directory; `nil` keeps asmrun's.
    package var workingDirectory: String?
    /// `argv[0]` as the child sees it; `nil` means the executable as given.
    package var argv0: String?

    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, argv0: String? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.argv0 = argv0
    }

    /// The command line as a user could paste it into a shell.
    package var description: String {
        ([executable] + arguments).map(ShellWords.quote).joined(separator: " ")
    }
}
