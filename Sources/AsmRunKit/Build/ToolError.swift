import Foundation

/// A tool asmrun needs is not installed.
public struct ToolError: Error, Equatable, LocalizedError, CustomStringConvertible {
    /// What is missing, e.g. `nasm` or `a linker for x86_64 ELF`.
    public let tool: String
    /// The Debian packages that provide it.
    public let packages: [String]
    /// Why it is needed, when that is not obvious.
    public let purpose: String?

    /// Creates the error.
    public init(tool: String, packages: [String], purpose: String? = nil) {
        self.tool = tool
        self.packages = packages
        self.purpose = purpose
    }

    /// `nasm not found: install it with `apt-get install nasm``.
    public var description: String {
        let why = purpose.map { " (\($0))" } ?? ""
        return "\(tool) not found\(why): install it with `apt-get install \(packages.joined(separator: " "))`"
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
