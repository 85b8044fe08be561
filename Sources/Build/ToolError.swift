import Support

/// A tool asmrun needs is not installed.
package struct ToolError: AsmRunError, Equatable {
    /// What is missing, e.g. `nasm` or `a linker for x86_64 ELF`.
    package let tool: String
    /// The Debian packages that provide it.
    package let packages: [String]
    /// Why it is needed, when that is not obvious.
    package let purpose: String?

    package init(tool: String, packages: [String], purpose: String? = nil) {
        self.tool = tool
        self.packages = packages
        self.purpose = purpose
    }

    package var problem: String { "\(tool) not found" + (purpose.map { " (\($0))" } ?? "") }
    package var fix: String? { "install it with `apt-get install \(packages.joined(separator: " "))`" }
}
