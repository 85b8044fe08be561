import Glibc
import Processes
import Support

/// The command-line entry point: picks the subcommand and maps errors to exit statuses.
package enum AsmRun {
    /// The version printed by `--version`.
    package static let version = "0.1.0"

    /// Runs asmrun with `arguments` (without the program name) and returns the exit status.
    package static func main(_ arguments: [String], context: Context) -> Int32 {
        let command = arguments.first ?? ""
        let rest = Array(arguments.dropFirst())
        switch command {
        case "":
            context.console.write(Usage.main, to: .error)
            return ExitStatus.usage
        case "-h", "--help", "help":
            context.console.write(Usage.main)
            return ExitStatus.success
        case "--version":
            context.console.write("asmrun \(version)\n")
            return ExitStatus.success
        case "test":
            return TestCommand.main(rest, context: context)
        case "report":
            return ReportCommand.main(rest, context: context)
        case "doctor":
            return subcommand(rest, help: Usage.doctor, failing: .test, context: context) {
                if let first = rest.first {
                    throw UsageError("doctor takes no arguments, not `\(first.displayEscaped)`", fix: "run asmrun doctor alone")
                }
                return DoctorCommand(context: context).execute()
            }
        case "cache":
            return subcommand(rest, help: Usage.cache, failing: .test, context: context) { CacheCommand.main(rest, context: context) }
        case "run":
            return runMain(rest, context: context)
        case "debug":
            return DebugCommand.main(rest, context: context)
        case "trace":
            return TraceCommand.main(rest, context: context)
        default:
            return runMain(arguments, context: context)
        }
    }

    /// The command line's arguments after the program's name, as the bytes the kernel gave.
    package static func commandLineBytes() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    /// Runs asmrun with the command line's bytes: an argument that is not UTF-8 (a name from a
    /// Latin-1 or CP437 zip) would be decoded into a name no file has, so it is refused, named
    /// byte for byte, with the fix.
    package static func main(bytes arguments: [[UInt8]], context: Context) -> Int32 {
        var decoded: [String] = []
        for raw in arguments {
            guard let text = String(validating: raw, as: UTF8.self) else {
                let command: ExitStatus.Command = arguments.first == Array("test".utf8) ? .test : .run
                let shown = raw.map {
                    $0 >= 0x20 && $0 < 0x7f ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16).leftPadded(to: 2)
                }
                let error = UsageError(
                    "\(shown.joined()) is not UTF-8, and asmrun reads names as UTF-8",
                    fix: "rename it in UTF-8, e.g. convmv -f latin1 -t utf8 -r --notest FOLDER")
                return ExitStatus.failed(error, in: command, context.diagnostics)
            }
            decoded.append(text)
        }
        return main(decoded, context: context)
    }

    /// `-h`/`--help` among asmrun's own options (not among the program's, after `--`).
    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }

    /// A subcommand's frame: `-h`/`--help` prints `help`; an error `body` throws is emitted and
    /// exits as `command`'s errors do.
    static func subcommand(
        _ arguments: [String], help: String, failing command: ExitStatus.Command, context: Context, _ body: () throws -> Int32
    ) -> Int32 {
        if wantsHelp(arguments) {
            context.console.write(help)
            return ExitStatus.success
        }
        do { return try body() } catch { return ExitStatus.failed(error, in: command, context.diagnostics) }
    }

    private static func runMain(_ arguments: [String], context: Context) -> Int32 {
        subcommand(arguments, help: Usage.main, failing: .run, context: context) {
            RunCommand(options: try RunOptions(parsing: arguments), context: context).execute()
        }
    }
}
