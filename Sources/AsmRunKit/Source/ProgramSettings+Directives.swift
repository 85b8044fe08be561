extension ProgramSettings {
    /// The directives a source file may carry after `; asmrun:`, for error messages and help.
    public static let directiveSummary = """
        format elf64|elf32, link auto|ld|cc, define NAME[=VALUE], include DIR, timeout SECONDS, \
        skip RUNNER|all [REASON], xfail RUNNER|all [REASON], qemu-cpu MODEL, include-only, \
        limit memory|file-size|cpu|processes|open-files|output VALUE
        """

    /// Applies one directive, e.g. `format elf32`; `location` is `file:line` for errors.
    public mutating func apply(_ directive: Substring, at location: String) throws {
        let words = directive.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let key = words.first.map(String.init) else {
            throw invalid(location, "empty asmrun directive")
        }
        let arguments = words.dropFirst().map(String.init)
        let rest = arguments.dropFirst().joined(separator: " ")
        func argument(_ what: String) throws -> String {
            guard let first = arguments.first else { throw invalid(location, "`\(key)` needs \(what)") }
            return first
        }
        switch key {
        case "format":
            let value = try argument("elf64 or elf32")
            guard let parsed = ObjectFormat(rawValue: value) else {
                throw invalid(location, "unknown format `\(value)` (use elf64 or elf32)")
            }
            format = parsed
        case "link":
            let value = try argument("auto, ld or cc")
            guard let parsed = LinkMode(rawValue: value) else {
                throw invalid(location, "unknown link mode `\(value)` (use auto, ld or cc)")
            }
            link = parsed
        case "define": defines.append(try argument("NAME[=VALUE]"))
        case "include": includeDirectories.append(try argument("a directory"))
        case "timeout":
            let value = try argument("a number of seconds")
            guard let seconds = Double(value), seconds > 0 else {
                throw invalid(location, "timeout `\(value)` is not a positive number of seconds")
            }
            timeout = seconds
        case "skip": skips[try argument("a runner name or `all`")] = rest.isEmpty ? "skipped" : rest
        case "xfail":
            expectedFailures[try argument("a runner name or `all`")] = rest.isEmpty ? "expected to fail" : rest
        case "qemu-cpu": qemuCPU = try argument("a CPU model such as qemu64")
        case "include-only": includeOnly = true
        case "limit":
            let name = try argument("a limit name")
            guard let text = arguments.dropFirst().first, let value = Self.parseSize(text) else {
                throw invalid(location, "`limit \(name)` needs a value such as 256M or 100")
            }
            if name == "output" {
                outputLimit = value
            } else {
                try limits.set(name, value, at: location)
            }
        default:
            throw invalid(location, "unknown asmrun directive `\(key)` (known: \(Self.directiveSummary))")
        }
    }

    /// Parses `100`, `64K`, `256M`, `2G`.
    static func parseSize(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = text.uppercased().last, let multiplier = multipliers[last] {
            return Int(text.dropLast()).map { $0 * multiplier }
        }
        return Int(text)
    }
}

extension ResourceLimits {
    mutating func set(_ name: String, _ value: Int, at location: String) throws {
        switch name {
        case "memory": addressSpace = value
        case "file-size": fileSize = value
        case "cpu": cpuSeconds = value
        case "processes": processes = value
        case "open-files": openFiles = value
        default:
            throw invalid(location, "unknown limit `\(name)` (use memory, file-size, cpu, processes, open-files or output)")
        }
    }
}

private func invalid(_ location: String, _ problem: String) -> SourceError {
    SourceError(path: location, problem: problem, fix: "fix the `; asmrun:` line")
}
