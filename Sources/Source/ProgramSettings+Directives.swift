import Support

extension ProgramSettings {
    /// The directives a source file may carry after `; asmrun:`, for error messages and help.
    static let directiveSummary = """
        format elf64|elf32, link auto|ld|cc, with FILE..., link-flags FLAGS, c-flags FLAGS, argv0 NAME, \
        define NAME[=VALUE], include DIR, timeout SECONDS, skip RUNNER|all [REASON], \
        xfail RUNNER|all [REASON], qemu-cpu MODEL, include-only, \
        limit memory|file-size|cpu|processes|open-files|output VALUE
        """

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
            guard let parsed = ObjectFormat(named: value) else {
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
            let named = try shellWords(of: arguments, location)
            sources += named
            namedPaths += named.map { NamedPath(.source, written: $0, path: $0, line: location.line, relativeToSource: true) }
        case "link-flags":
            guard !arguments.isEmpty else { throw invalid(location, "`link-flags` needs flags such as -lm") }
            let flags = try shellWords(of: arguments, location)
            namedPaths += try checked(flags, key, link: true, location)
            linkFlags += flags
        case "c-flags":
            guard !arguments.isEmpty else { throw invalid(location, "`c-flags` needs flags such as -O2") }
            let flags = try shellWords(of: arguments, location)
            namedPaths += try checked(flags, key, link: false, location)
            cFlags += flags
        case "argv0": argv0 = try argument("the name the program sees as argv[0], such as ./leap.out")
        case "define": defines.append(try Self.definition(try argument("NAME[=VALUE]"), at: location))
        case "include":
            let folder = try argument("a directory")
            includeDirectories.append(folder)
            namedPaths.append(NamedPath(.folder, written: "include \(folder)", path: folder, line: location.line, relativeToSource: true))
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
        if let problem = limits.apply(limit: arguments, outputLimit: &outputLimit) { throw invalid(location, problem) }
    }

    /// The longest time limit asmrun accepts anywhere: a week.
    package static var maximumSeconds: Double { ResourceLimits.maximumSeconds }

    /// A positive, finite number of seconds up to a week.
    package static func parseSeconds(_ text: String) -> Double? { ResourceLimits.parseSeconds(text) }

    /// Parses `100`, `64K`, `256M`, `2G` within `range`; `nil` for anything else, overflow included.
    package static func parseSize(_ text: String, in range: ClosedRange<Int> = 1...(1 << 40)) -> Int? {
        ResourceLimits.parseSize(text, in: range)
    }
}

/// The paths `flags` name, unless one of them is not for a source to pass (`DirectiveFlags`).
private func checked(_ flags: [String], _ key: String, link: Bool, _ location: FileLocation) throws -> [NamedPath] {
    let named: [NamedPath]
    do throws(DirectiveFlags.Refusal) {
        named = try DirectiveFlags.read(flags, for: link ? .link : .compile)
    } catch {
        let option = link ? "--link-flags" : "--c-flags"
        throw FileError(
            path: location.path, line: location.line, problem: "`\(key)` may not pass `\(error.flag)`: \(error.reason)",
            fix: "remove it from the source, or pass it with \(option) on your own command line if you trust it")
    }
    return named.map { path in
        var path = path
        path.line = location.line
        return path
    }
}

private func invalid(_ location: FileLocation, _ problem: String) -> FileError {
    FileError(path: location.path, line: location.line, problem: problem, fix: "fix the `; asmrun:` line")
}

extension ProgramSettings {
    /// `value`, a `define` directive's `NAME[=VALUE]`, or the error naming its line.
    static func definition(_ value: String, at location: FileLocation) throws -> String {
        guard let problem = defineProblem(value) else { return value }
        throw invalid(location, "`define \(value)`: \(problem)")
    }

    /// Why `text` is no `NAME[=VALUE]` (or `NAME(PARAMS)=VALUE`) for nasm's `-D` (nil when it is
    /// one): a name of letters, digits and `_ . ? $ # @ ~`, not starting with a digit.
    package static func defineProblem(_ text: String) -> String? {
        // `SQR(x)=((x)*(x))`: a macro with parameters is its name and a parameter list.
        let name =
            text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first?
            .split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let first = name.unicodeScalars.first else { return "a definition needs a name before any `=`" }
        let digits: ClosedRange<Unicode.Scalar> = "0"..."9"
        let allowed = { (c: Unicode.Scalar) in
            c.isASCII && (c.properties.isAlphabetic || digits.contains(c) || "_.?$#@~".unicodeScalars.contains(c))
        }
        guard name.unicodeScalars.allSatisfy(allowed), !digits.contains(first) else {
            return
                "`\(String(name).displayEscaped)` is not a name nasm can define (letters, digits and _ . ? $ # @ ~, not starting with a digit)"
        }
        return nil
    }
}
