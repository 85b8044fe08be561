import Build
import Processes
import Support

/// `--strace`: the program's system calls, from strace natively and from qemu's own `-strace`
/// under qemu, written to a log file (not mixed into the program's stderr) and printed after it
/// ran, one call per line in one format: `name(arguments) = result`, without process ids or
/// column padding. strace decodes strings and flags; qemu shows most pointers as addresses.
package struct SystemCallTrace: Sendable {
    private let folder: TemporaryDirectory
    private let strace: String?
    private let runner: Runner

    package init(runner: Runner, toolchain: Toolchain, environment: [String: String]) throws {
        switch runner.kind {
        case .native:
            guard let path = toolchain.locator.find("strace") else {
                throw ToolError(tool: "strace", packages: ["strace"], purpose: "needed for --strace")
            }
            strace = path
        case .qemu: strace = nil
        case .binfmt, .custom:
            throw RunnerUnavailable(
                runner: runner.name, reason: "--strace works under the native and qemu runners",
                fix: "use --runner native or --runner qemu with --strace")
        }
        self.runner = runner
        folder = try TemporaryDirectory(prefix: "strace", environment: environment)
    }

    private var log: String { folder.path + "/calls" }

    /// `command` (the runner's) with the tracing added.
    package func wrap(_ command: Command) -> Command {
        var traced = command
        if let strace {
            traced = Command(strace, ["-f", "-qq", "-s", "64", "-o", log, "--", command.executable] + command.arguments)
            traced.environment = command.environment
            traced.workingDirectory = command.workingDirectory
        } else {
            traced.arguments = ["-strace", "-D", log] + command.arguments
        }
        return traced
    }

    /// The calls, normalized, under a header naming `program`; the log is removed.
    package func report(program: String) -> String {
        defer { folder.remove() }
        let text = (try? Files.read(log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let calls = text.split(separator: "\n").compactMap { Self.normalize($0, spacingCommas: strace == nil) }
        let source = strace == nil ? "qemu -strace" : "strace"
        return "asmrun: system calls of \(program) (\(source)):\n" + calls.map { "  " + $0 + "\n" }.joined()
    }

    /// One line of either tool as `name(arguments) = result`; `nil` for what is not a call made
    /// by the program (strace's own exec of it, its exit and mode notes). qemu writes no space
    /// after its commas (`spacingCommas` adds them; strace's strings may hold commas of their own).
    static func normalize(_ line: Substring, spacingCommas: Bool) -> String? {
        var text = line.trimmingBlanks()
        // A process id first (qemu always, strace -f once a second process exists).
        if let space = text.firstIndex(of: " "), text[..<space].allSatisfy(\.isNumber) {
            text = text[space...].trimmingBlanks()
        }
        if text.hasPrefix("+++") || text.hasPrefix("[ ") || text.hasPrefix("execve(") || text.isEmpty { return nil }
        if text.hasPrefix("---") { return String(text) }
        // The result follows the last `=` right after a closing parenthesis (strings may hold
        // either, and an error result has parentheses of its own: `= -1 ENOENT (No such file…)`).
        var search = text.endIndex
        var found: (call: String, equals: Substring.Index)?
        while found == nil, let equals = text[..<search].lastIndex(of: "=") {
            let before = text[..<equals].trimmingBlanks()
            if before.hasSuffix(")") { found = (before, equals) }
            search = equals
        }
        guard let (before, equals) = found else { return String(text) }
        var call = String(before)
        if spacingCommas { call = call.replacing(",", with: ", ") }
        var result = text[text.index(after: equals)...].trimmingBlanks()
        // qemu's `-1 errno=2 (No such file or directory)` as strace writes it: `-1 ENOENT (…)`.
        if let range = result.firstRange(of: "errno=") {
            let digits = result[range.upperBound...].prefix { $0.isNumber }
            if let number = Int32(digits), let name = ErrorNumber.name(of: number) {
                result.replaceSubrange(range.lowerBound..<digits.endIndex, with: name)
            }
        }
        return result == "?" || result.isEmpty ? call : call + " = " + result
    }
}
