import Support

extension ProgramSettings {
    /// The directives a source file may carry after `; asmrun:`, for error messages and help.
    package static let directiveSummary = """
        format elf64|elf32, link auto|ld|cc, with FILE..., link-flags FLAGS, c-flags FLAGS, argv0 NAME, \
        define NAME[=VALUE], include DIR, timeout SECONDS, skip RUNNER|all [REASON], \
        xfail RUNNER|all [REASON], qemu-cpu MODEL, include-only, \
        limit memory|file-size|cpu|processes|open-files|output VALUE
        """

    /// The longest time limit asmrun accepts anywhere: a week.
    package static let maximumSeconds = 604_800.0

    /// Applies one directive, e.g. `format elf32`, found at `location`.
    package mutating func apply(_ directive: String, at location: FileLocation) throws {
        let words = directive.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let key = words.first else { throw invalid(location, "empty asmrun directive") }
        let arguments = Array(words.dropFirst())
        let rest = arguments.dropFirst().joined(separator: " ")
        func argument(_ what: String) throws -> String {
            guard let first = arguments.first else { throw invalid(location, "`\(key)` needs \(what)") }
            return first
        }
        switch key.lowercased() {
        case "format":
            let value = try argument("elf64 or elf32")
            guard let parsed = ObjectFormat(rawValue: value.lowercased()) else {
                throw invalid(location, "unknown format `\(value)` (use elf64 or elf32)")
            }
            format = parsed
        case "link":
            let value = try argument("auto, ld or cc")
            guard let parsed = LinkMode(rawValue: value.lowercased()) else {
                throw invalid(location, "unknown link mode `\(value)` (use auto, ld or cc)")
            }
            link = parsed
        case "with":
            guard !arguments.isEmpty else { throw invalid(location, "`with` needs the program's other files (util.asm driver.c)") }
            sources += try shellWords(of: arguments, location)
        case "link-flags":
            guard !arguments.isEmpty else { throw invalid(location, "`link-flags` needs flags such as -lm") }
            linkFlags += try checked(shellWords(of: arguments, location), key, link: true, location)
        case "c-flags":
            guard !arguments.isEmpty else { throw invalid(location, "`c-flags` needs flags such as -O2") }
            cFlags += try checked(shellWords(of: arguments, location), key, link: false, location)
        case "argv0": argv0 = try argument("the name the program sees as argv[0], such as ./leap.out")
        case "define": defines.append(try argument("NAME[=VALUE]"))
        case "include": includeDirectories.append(try argument("a directory"))
        case "timeout":
            let value = try argument("a number of seconds")
            guard let seconds = Self.parseSeconds(value) else {
                throw invalid(location, "timeout `\(value)` is not a number of seconds from 0.001 to \(Int(Self.maximumSeconds))")
            }
            timeout = seconds
        case "skip": skips[try argument("a runner name or `all`")] = rest.isEmpty ? "skipped" : rest
        case "xfail":
            expectedFailures[try argument("a runner name or `all`")] = rest.isEmpty ? "expected to fail" : rest
        case "qemu-cpu": qemuCPU = try argument("a CPU model such as qemu64")
        case "include-only": includeOnly = true
        case "limit": try applyLimit(arguments, at: location)
        default:
            throw invalid(location, "unknown asmrun directive `\(key)` (known: \(Self.directiveSummary))")
        }
    }

    /// The words of a directive's arguments, with shell quoting (`with "my file.asm"`).
    private func shellWords(of arguments: [String], _ location: FileLocation) throws -> [String] {
        do {
            return try ShellWords.split(arguments.joined(separator: " "))
        } catch {
            throw invalid(location, "\(error)")
        }
    }

    private mutating func applyLimit(_ arguments: [String], at location: FileLocation) throws {
        guard let name = arguments.first else { throw invalid(location, "`limit` needs a limit name") }
        guard let limit = LimitName(rawValue: name) else {
            throw invalid(location, "unknown limit `\(name)` (use memory, file-size, cpu, processes, open-files or output)")
        }
        guard arguments.count >= 2 else { throw invalid(location, "`limit \(name)` needs a value such as \(limit.example)") }
        guard let value = limit.parse(arguments[1]) else {
            throw invalid(location, "`limit \(name) \(arguments[1])` is out of range: \(limit.range)")
        }
        switch limit {
        case .memory: limits.addressSpace = value
        case .fileSize: limits.fileSize = value
        case .cpu: limits.cpuSeconds = value
        case .processes: limits.processes = value
        case .openFiles: limits.openFiles = value
        case .output: outputLimit = value
        }
    }

    /// A positive, finite number of seconds up to a week.
    package static func parseSeconds(_ text: String) -> Double? {
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001, seconds <= maximumSeconds else { return nil }
        return seconds
    }

    /// Parses `100`, `64K`, `256M`, `2G` within `range`; `nil` for anything else, overflow included.
    package static func parseSize(_ text: String, in range: ClosedRange<Int> = 1...(1 << 40)) -> Int? {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var multiplier = 1
        if let last = text.uppercased().last, let scale = multipliers[last] {
            digits = digits.dropLast()
            multiplier = scale
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return !overflow && range.contains(value) ? value : nil
    }
}

/// The limits `; asmrun: limit NAME VALUE` can set, with their ranges.
private enum LimitName: String {
    case memory, fileSize = "file-size", cpu, processes, openFiles = "open-files", output

    var range: String {
        switch self {
        case .memory, .fileSize, .output: "a size from 1 to 1024G"
        case .cpu: "seconds from 1 to \(Int(ProgramSettings.maximumSeconds))"
        case .processes, .openFiles: "a count from 1 to 1048576"
        }
    }

    var example: String { self == .cpu || self == .processes || self == .openFiles ? "64" : "256M" }

    func parse(_ text: String) -> Int? {
        switch self {
        case .memory, .fileSize, .output: ProgramSettings.parseSize(text)
        case .cpu: ProgramSettings.parseSize(text, in: 1...Int(ProgramSettings.maximumSeconds))
        case .processes, .openFiles: ProgramSettings.parseSize(text, in: 1...(1 << 20))
        }
    }
}

/// `flags`, unless one of them is not for a source to pass (`DirectiveFlags`).
private func checked(_ flags: [String], _ key: String, link: Bool, _ location: FileLocation) throws -> [String] {
    for flag in flags {
        guard let reason = DirectiveFlags.problem(flag, link: link) else { continue }
        let fix = link ? "remove it from the source (`--link-flags` on your command line passes it)" : "remove it from the source"
        throw FileError(
            path: location.path, line: location.line, problem: "`\(key)` may not pass `\(flag)`: \(reason), outside the sandbox",
            fix: fix)
    }
    return flags
}

private func invalid(_ location: FileLocation, _ problem: String) -> FileError {
    FileError(path: location.path, line: location.line, problem: problem, fix: "fix the `; asmrun:` line")
}
