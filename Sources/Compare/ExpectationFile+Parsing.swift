import Processes
import Support

extension ExpectationFile {
    /// Parses the text of a `.expect` file; `path` names it in errors.
    /// Lines end at `\n` bytes (a CRLF file's `\r` is dropped: asmrun writes carriage returns
    /// only as `\r` escapes) and a UTF-8 byte order mark is skipped.
    package init(parsing text: String, path: String) throws {
        var parser = ExpectationParser(path: path)
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) { bytes.removeFirst(3) }
        for var line in bytes.split(separator: 0x0a, omittingEmptySubsequences: false) {
            if line.last == 0x0d { line = line.dropLast() }
            try parser.take(String(decoding: line, as: UTF8.self))
        }
        self = try parser.finish()
    }

    /// Parses `exit 3`, `signal SIGSEGV`, `timeout`.
    static func parseStatus(_ text: String) -> Termination? {
        let words = text.split(separator: " ")
        switch (words.first, words.count) {
        case ("exit", 2): return Int32(words[1]).flatMap { (0...255).contains($0) ? .exited($0) : nil }
        case ("signal", 2): return Signal.number(named: String(words[1])).map { .signaled($0) }
        case ("timeout", 1): return .timedOut
        default: return nil
        }
    }
}

/// The line-by-line state of parsing one `.expect` file.
private struct ExpectationParser {
    private enum Block { case stdin, stdout(String?), stderr(String?), input(String), file(String, String?) }

    let path: String
    private var file = ExpectationFile()
    private var current: TestCase?
    private var block: Block?
    private var content = TextLines(lines: [])
    private var lineNumber = 0
    /// Comment lines inside a case, waiting for the line they precede.
    private var pendingComments: [String] = []
    /// The cases' names so far: a file of thousands of cases is parsed in linear time.
    private var names: Set<String> = []

    init(path: String) { self.path = path }

    mutating func take(_ line: String) throws {
        lineNumber += 1
        // Bytes, not Characters: grapheme breaking on every line was most of a file's parse.
        if block != nil, let first = line.utf8.first, first == 0x7C || first == 0x7E || first == 0x5C {
            return try takeContent(line, marker: Character(Unicode.Scalar(first)))
        }
        closeBlock()
        let trimmed = line.trimmingBlanks()
        if trimmed.isEmpty || trimmed.hasPrefix("#") {
            if current == nil && file.cases.isEmpty {
                file.header.append(line)
            } else if !trimmed.isEmpty {
                pendingComments.append(line)
            }
            return
        }
        if trimmed.hasPrefix("[case ") && trimmed.hasSuffix("]") {
            if current == nil && file.cases.isEmpty { takeCommentsAboveFirstCase() }
            closeCase()
            let name = String(trimmed.dropFirst("[case ".count).dropLast()).trimmingBlanks()
            guard !name.isEmpty, !name.contains(":") else { throw fail("a case needs a name without `:`") }
            guard names.insert(name).inserted else { throw fail("case `\(name)` appears twice") }
            current = TestCase(name: name)
            current!.lines.header = lineNumber
            attachComments(to: CaseComments.caseLine)
            return
        }
        guard current != nil else { throw fail("`\(trimmed)` outside a case; start one with `[case NAME]`") }
        try takeField(trimmed)
    }

    mutating func finish() throws -> ExpectationFile {
        if current != nil { attachComments(to: CaseComments.end) }
        closeCase()
        while file.header.last?.trimmingBlanks().isEmpty == true { file.header.removeLast() }
        return file
    }

    /// Comment lines right above the first `[case` (after a blank line that ends the header)
    /// are that case's, as comments above any other case are.
    private mutating func takeCommentsAboveFirstCase() {
        guard let blank = file.header.lastIndex(where: { $0.trimmingBlanks().isEmpty }), blank < file.header.count - 1 else { return }
        pendingComments = Array(file.header[(blank + 1)...])
        file.header.removeSubrange(blank...)
    }

    /// Comments read since the last field belong to the line now read (`key`).
    private mutating func attachComments(to key: String) {
        guard !pendingComments.isEmpty else { return }
        current!.comments.before[key, default: []] += pendingComments
        pendingComments = []
    }

    /// A `|` text line, a `~` escaped line or the `\ no newline at end` marker of a block.
    private mutating func takeContent(_ line: String, marker: Character) throws {
        let bytes = line.utf8.dropFirst()
        let body = bytes.first == 0x20 ? bytes.dropFirst() : bytes
        switch marker {
        case "|": content.lines.append(Array(body))
        case "~":
            guard let unescaped = TextLines.unescape(String(decoding: body, as: UTF8.self)) else {
                throw fail("bad escape in `\(line)`")
            }
            content.lines.append(unescaped)
        default:
            guard line == "\\ no newline at end", !content.lines.isEmpty else {
                throw fail("unknown marker `\(line)` (only `\\ no newline at end` after a line)")
            }
            content.endsWithNewline = false
        }
    }

    private mutating func takeField(_ line: String) throws {
        let (key, runner, value) = try splitField(line)
        var label = runner.map { "\(key) @\($0)" } ?? key
        if key == "env" && !current!.environment.isEmpty { label += " \(current!.environment.count + 1)" }
        if key == "limit", let name = value.split(separator: " ").first { label += " \(name)" }
        // One value per field (`env` lines add up; `limit` and `input` say which one repeats).
        if let first = current!.lines.fields[label], key != "limit", !key.hasPrefix("input ") {
            throw fail("`\(label):` appears twice in case `\(current!.name)` (first on line \(first)); keep one")
        }
        current!.lines.fields[label] = lineNumber
        attachComments(to: label)
        if let name = try fileName(after: "input ", in: key) {
            guard runner == nil else { throw fail("input files cannot be runner-specific") }
            if current!.inputs.contains(where: { $0.name == name }) { throw fail("input `\(name)` appears twice") }
            block = .input(name)
        } else if let name = try fileName(after: "file ", in: key) {
            block = .file(name, runner)
        } else {
            try takeSimpleField(key, runner: runner, value: value)
        }
        if block != nil && !value.isEmpty { throw fail("`\(key):` takes its content on the following `|` lines") }
    }

    /// `out.txt` from `file out.txt`: a relative path inside the case folder.
    private func fileName(after prefix: String, in key: String) throws -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        let name = key.dropFirst(prefix.count).trimmingBlanks()
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" })
        else { throw fail("`\(name)` is not a path inside the case folder (like out.txt or data/in.txt)") }
        return name
    }

    private mutating func takeSimpleField(_ key: String, runner: String?, value: String) throws {
        switch key {
        case "args":
            guard runner == nil else { throw fail("args cannot be runner-specific") }
            do { current!.arguments = try ShellWords.split(value) } catch { throw fail("\(error)") }
        case "env":
            guard runner == nil, value.contains("=") else { throw fail("env needs NAME=VALUE") }
            current!.environment.append(value)
        case "stdin":
            guard runner == nil else { throw fail("stdin cannot be runner-specific") }
            block = .stdin
        case "stdout" where value == "any": current!.set(\.stdout, TextLines.anything, runner: runner)
        case "stderr" where value == "any": current!.set(\.stderr, TextLines.anything, runner: runner)
        case "stdout": block = .stdout(runner)
        case "stderr": block = .stderr(runner)
        case "status":
            guard let status = ExpectedStatus.parse(value) else {
                throw fail(
                    "status must be `exit N` (N from 0 to 255), `signal NAME`, `timeout`, `exit any` or `any`, or several joined by `|`, not `\(value)`"
                )
            }
            current!.set(\.status, status, runner: runner)
        case "points":
            guard runner == nil else { throw fail("points cannot be runner-specific") }
            guard let points = Double(value), points.isFinite, (0...ExpectationFile.maximumPoints).contains(points) else {
                throw fail("points must be a number from 0 to \(Int(ExpectationFile.maximumPoints)), not `\(value)`")
            }
            current!.points = points
        default:
            try takeJudgingField(key, runner: runner, value: value)
        }
    }

    /// How the case is judged: `visibility:`, `timeout:`, `limit: NAME VALUE`.
    private mutating func takeJudgingField(_ key: String, runner: String?, value: String) throws {
        guard ["visibility", "timeout", "limit"].contains(key) else {
            throw fail(
                "unknown field `\(key)` (args, env, stdin, input NAME, stdout, stderr, file NAME, status, points, visibility, timeout, limit)"
            )
        }
        guard runner == nil else { throw fail("\(key) cannot be runner-specific") }
        switch key {
        case "visibility":
            guard let visibility = Visibility(rawValue: value) else {
                throw fail("visibility must be visible, hidden, after_due_date or after_published, not `\(value)`")
            }
            current!.visibility = visibility
        case "timeout":
            guard let seconds = ResourceLimits.parseSeconds(value) else {
                throw fail("timeout must be a number of seconds from 0.001 to \(Int(ResourceLimits.maximumSeconds)), not `\(value)`")
            }
            current!.timeout = seconds
        default:
            let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var limits = ResourceLimits()
            var output: Int?
            if let problem = limits.apply(limit: words, outputLimit: &output) { throw fail(problem) }
            if current!.limits.contains(where: { $0.name == words[0] }) { throw fail("limit `\(words[0])` appears twice") }
            current!.limits.append(CaseLimit(name: words[0], value: words[1]))
        }
    }

    private mutating func closeBlock() {
        guard let open = block, current != nil else { return }
        switch open {
        case .stdin: current!.stdin = content
        case .stdout(let runner): current!.set(\.stdout, content, runner: runner)
        case .stderr(let runner): current!.set(\.stderr, content, runner: runner)
        case .input(let name): current!.inputs.append(CaseFile(name: name, content: content))
        case .file(let name, let runner):
            if let runner {
                current!.overrides[runner, default: Expected()].files[name] = content
            } else {
                current!.expected.files[name] = content
            }
        }
        block = nil
        content = TextLines(lines: [])
    }

    private mutating func closeCase() {
        closeBlock()
        if let finished = current { file.cases.append(finished) }
        current = nil
    }

    private func fail(_ problem: String) -> FileError {
        FileError(path: path, line: lineNumber, problem: problem, fix: "fix the line or delete the file and run `asmrun test --update`")
    }

    /// `stdout @qemu:` → ("stdout", "qemu", ""); `status: exit 0` → ("status", nil, "exit 0").
    private func splitField(_ line: String) throws -> (String, String?, String) {
        guard let colon = line.utf8.firstIndex(of: 0x3A) else { throw fail("expected `field: value`, got `\(line)`") }
        let keyPart = line[..<colon]
        var key = String(keyPart)
        var runner: String?
        var valueStart = line.utf8.index(after: colon)
        if let at = keyPart.utf8.firstIndex(of: 0x40) {
            key = keyPart[..<at].trimmingBlanks()
            // A runner may itself contain `:` (a custom command): the field ends at the last `:`
            // that is followed by nothing or by a space.
            let afterAt = line[line.index(after: at)...]
            var end = afterAt.endIndex
            var index = afterAt.startIndex
            while index < afterAt.endIndex {
                let next = afterAt.index(after: index)
                if afterAt[index] == ":" && (next == afterAt.endIndex || afterAt[next] == " ") { end = index }
                index = next
            }
            guard end < afterAt.endIndex else { throw fail("expected `field @runner:`") }
            runner = afterAt[..<end].trimmingBlanks()
            valueStart = afterAt.index(after: end)
        }
        return (key.trimmingBlanks(), runner, line[valueStart...].trimmingBlanks())
    }
}

extension TestCase {
    mutating func set<Value>(_ field: WritableKeyPath<Expected, Value?>, _ value: Value, runner: String?) {
        if let runner {
            overrides[runner, default: Expected()][keyPath: field] = value
        } else {
            expected[keyPath: field] = value
        }
    }
}
