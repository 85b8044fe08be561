import Build
import Run
import Source

/// The parsed command line of `asmrun [run] FILE.asm [options] [-- ARGS]`.
package struct RunOptions: Sendable, Equatable {
    package var source = ""
    /// `-f`: overrides the source's own choice.
    package var format: ObjectFormat?
    /// `--link`: overrides the source's own choice.
    package var link: LinkMode?
    /// `-I` directories.
    package var includeDirectories: [String] = []
    /// `-D` definitions.
    package var defines: [String] = []
    package var runner = RunnerChoice.auto
    /// `-o`: where to keep the executable.
    package var output: String?
    /// `--timeout` in seconds.
    package var timeout: Double?
    /// `-v`: print each tool command line.
    package var verbose = false
    /// Arguments after `--` for the program.
    package var programArguments: [String] = []
    package var useCache = true
    package var cacheDirectory: String?

    package init() {}

    /// Parses the arguments after `run` (or after `asmrun` when no command is named).
    package init(parsing arguments: [String]) throws {
        var scanner = ArgumentScanner(arguments)
        var operands: [String] = []
        while let argument = scanner.next() {
            switch argument {
            case "-f", "--format": format = try scanner.choice(for: argument, as: ObjectFormat.self)
            case "--link": link = try scanner.choice(for: argument, as: LinkMode.self)
            case "-I": includeDirectories.append(try scanner.value(for: argument))
            case "-D": defines.append(try scanner.value(for: argument))
            case "--runner": runner = RunnerChoice(try scanner.value(for: argument))
            case "-o": output = try scanner.value(for: argument)
            case "--timeout": timeout = try scanner.seconds(for: argument)
            case "-v", "--verbose": verbose = true
            case "--no-cache": useCache = false
            case "--cache-dir": cacheDirectory = try scanner.value(for: argument)
            case let option where option.hasPrefix("-") && option.count > 1:
                throw UsageError("unknown option \(option); see `asmrun --help`")
            default: operands.append(argument)
            }
        }
        guard let first = operands.first else {
            throw UsageError("no program given; usage: asmrun FILE.asm [options] [-- ARGS]")
        }
        guard operands.count == 1 else {
            throw UsageError("one program at a time (got \(operands.joined(separator: " "))); pass program arguments after `--`")
        }
        source = first
        programArguments = scanner.passthrough
    }

    /// Applies the command-line overrides to what the source itself says.
    package func apply(to settings: inout ProgramSettings) {
        if let format { settings.format = format }
        if let link { settings.link = link }
        settings.includeDirectories += includeDirectories
        settings.defines += defines
        if let timeout { settings.timeout = timeout }
    }
}

extension RunOptions {
    /// The cache options from `--no-cache` and `--cache-dir`.
    var cacheOptions: CacheOptions { CacheOptions(enabled: useCache, directory: cacheDirectory) }
}
