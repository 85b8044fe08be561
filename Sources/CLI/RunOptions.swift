import Build
import Run
import Source
import Support

/// The parsed command line of `asmrun [run] FILE.asm [MORE...] [options] [-- ARGS]`.
struct RunOptions: Sendable, Equatable {
    /// The program's files (`.asm`, `.c`, `.o`, `.a`), or one folder; the first names it.
    var sources: [String] = []
    /// The first of `sources`: the file or folder the messages are about.
    var source: String { sources.first ?? "" }
    /// `-f`: overrides the source's own choice.
    var format: ObjectFormat?
    /// `--link`: overrides the source's own choice.
    var link: LinkMode?
    /// `-I` directories.
    var includeDirectories: [String] = []
    /// `-D` definitions.
    var defines: [String] = []
    /// `-l NAME` and `--link-flags`, for the link step.
    var linkFlags: [String] = []
    /// `--c-flags`, for compiling the program's C files.
    var cFlags: [String] = []
    var runner = RunnerChoice.auto
    /// `-o`: where to keep the executable.
    var output: String?
    /// `--timeout` in seconds.
    var timeout: Double?
    /// `-v`: print each tool command line.
    var verbose = false
    /// Arguments after `--` for the program.
    var programArguments: [String] = []
    var useCache = true
    var cacheDirectory: String?
    /// `--no-crash-report`: a crash is one line, and the program is not run a second time under
    /// the debugger (for programs whose side effects must not happen twice).
    var crashReport = true
    /// `--no-checks`: no `syscall` warnings, and a crash is not run again for the ABI checks.
    var checks = true
    /// `--strace`: print the program's system calls after it ran.
    var strace = false
    /// `--batch` (asmrun debug): run gdb's stop at the entry point and quit, for scripts.
    var batch = false
    /// `-g`: build with DWARF line tables (`nasm -g -F dwarf`, `cc -g`), run that build and keep
    /// it at `-o`, as a Makefile with `-g` would; otherwise the build is the classic one.
    var debugInfo = false
    /// `--stdin FILE` (asmrun debug): the program reads FILE instead of the terminal.
    var stdinFile: String?
    /// `--watch`: build and run again on each save of a file the program reads.
    var watch = false

    init() {}

    /// Parses the arguments after `run` (or after `asmrun` when no command is named), or after
    /// `debug`.
    init(parsing arguments: [String], debugging: Bool = false) throws {
        var scanner = ArgumentScanner(arguments)
        var operands: [String] = []
        while let argument = scanner.next() {
            switch argument {
            case "-f", "--format":
                let text = try scanner.value(for: argument)
                guard let named = ObjectFormat(named: text) else {
                    throw UsageError("\(argument) takes elf64 or elf32 (or elf, nasm's name for elf32), not `\(text)`")
                }
                format = named
            case "--link": link = try scanner.choice(for: argument, as: LinkMode.self)
            case "-I": includeDirectories.append(try scanner.value(for: argument))
            case "-D":
                let value = try scanner.value(for: argument)
                if let problem = ProgramSettings.defineProblem(value) { throw UsageError("-D \(value.displayEscaped): \(problem)") }
                defines.append(value)
            case "-l": linkFlags.append("-l" + (try scanner.value(for: argument)))
            case "--link-flags":
                let text = try scanner.value(for: argument)
                do { linkFlags += try ShellWords.split(text) } catch { throw UsageError("--link-flags: \(error)") }
            case "--c-flags":
                let text = try scanner.value(for: argument)
                do { cFlags += try ShellWords.split(text) } catch { throw UsageError("--c-flags: \(error)") }
            case "--runner": runner = RunnerChoice(try scanner.value(for: argument))
            case "-o": output = try scanner.value(for: argument)
            case "--timeout": timeout = try scanner.seconds(for: argument)
            case "-v", "--verbose": verbose = true
            case "--no-cache": useCache = false
            case "--strace" where !debugging: strace = true
            case "--watch" where !debugging: watch = true
            case "--no-crash-report" where !debugging: crashReport = false
            case "--no-checks" where !debugging: checks = false
            case "--batch" where debugging: batch = true
            case "--stdin" where debugging: stdinFile = try scanner.value(for: argument)
            case "-g", "--debug": debugInfo = true
            case "--cache-dir": cacheDirectory = try scanner.value(for: argument)
            case let option where option.hasPrefix("-") && option.count > 1:
                throw UsageError.unknownOption(option, help: "asmrun --help")
            default: operands.append(argument)
            }
        }
        guard !operands.isEmpty else {
            throw UsageError("no program given; usage: asmrun FILE.asm [MORE.asm|.c|.o] [options] [-- ARGS]")
        }
        sources = operands
        programArguments = scanner.passthrough
    }

    /// Applies the command-line overrides to what the source itself says.
    func apply(to settings: inout ProgramSettings) {
        if let format { settings.format = format }
        if let link { settings.link = link }
        settings.includeDirectories += includeDirectories
        settings.defines += defines
        settings.linkFlags += linkFlags
        settings.cFlags += cFlags
        // The command line's time limit is a ceiling: the source may only ask for less.
        if let timeout { settings.timeout = min(settings.timeout ?? timeout, timeout) }
    }
}

extension RunOptions {
    /// The cache options from `--no-cache` and `--cache-dir`.
    var cacheOptions: CacheOptions { CacheOptions(enabled: useCache, directory: cacheDirectory) }
}
