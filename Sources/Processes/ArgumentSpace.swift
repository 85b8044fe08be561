import Glibc

/// What `execve(2)` accepts, so that a refusal (E2BIG) can say what was too large: each argument
/// or environment string at most MAX_ARG_STRLEN (32 pages: 128 KiB with 4 KiB pages), and all of
/// them together, with their pointers, within ARG_MAX (a quarter of the stack limit, 2 MiB by
/// default).
package enum ArgumentSpace {
    /// Bytes one argument or `NAME=VALUE` may have, its terminating NUL included.
    package static var maxStringBytes: Int { 32 * Int(sysconf(Int32(_SC_PAGESIZE))) }

    /// Bytes all arguments and environment strings may take, pointers included.
    static var maxTotalBytes: Int { Int(sysconf(Int32(_SC_ARG_MAX))) }

    /// What in `arguments` and `environment` (`NAME=VALUE`) the kernel would refuse, as a phrase
    /// (`argument 2 (`xxxx…`) is 200000 bytes, more than the 131072 …`); `nil` when they fit.
    package static func problem(arguments: [String], environment: [String]) -> String? {
        let limit = maxStringBytes
        for (index, argument) in arguments.enumerated() where argument.utf8.count + 1 > limit {
            return "argument \(index + 1) (`\(preview(argument))`) is \(argument.utf8.count) bytes, "
                + "more than the \(limit - 1) Linux takes per argument"
        }
        for assignment in environment where assignment.utf8.count + 1 > limit {
            let name = assignment.split(separator: "=", maxSplits: 1).first.map(String.init) ?? assignment
            return "environment variable \(preview(name)) is \(assignment.utf8.count) bytes, "
                + "more than the \(limit - 1) Linux takes per variable"
        }
        let strings = (arguments + environment).reduce(0) { $0 + $1.utf8.count + 1 }
        let total = strings + MemoryLayout<UnsafePointer<CChar>>.size * (arguments.count + environment.count + 2)
        guard total > maxTotalBytes else { return nil }
        return "the arguments and environment take \(total) bytes, more than the \(maxTotalBytes) Linux takes here "
            + "(a quarter of the stack limit, `ulimit -s`)"
    }

    /// The first characters of a long string, escaped for printing.
    private static func preview(_ text: String) -> String {
        text.count > 16 ? String(text.prefix(16)).displayEscaped + "…" : text.displayEscaped
    }
}
