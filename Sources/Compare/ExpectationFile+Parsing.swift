import Sandbox
import Support

extension ExpectationFile {
    private enum Block { case stdin, stdout(String?), stderr(String?) }

    /// Parses the text of a `.expect` file; `path` names it in errors.
    package init(parsing text: String, path: String) throws {
        self.init()
        var current: TestCase?
        var block: Block?
        var content = TextLines(lines: [])
        var lineNumber = 0
        func fail(_ problem: String) -> FileError {
            FileError(
                path: path, line: lineNumber, problem: problem, fix: "fix the line or delete the file and run `asmrun test --update`")
        }
        func closeBlock() {
            guard let open = block, current != nil else { return }
            switch open {
            case .stdin: current!.stdin = content
            case .stdout(let runner): current!.set(\.stdout, content, runner: runner)
            case .stderr(let runner): current!.set(\.stderr, content, runner: runner)
            }
            block = nil
            content = TextLines(lines: [])
        }
        func closeCase() throws {
            closeBlock()
            if let finished = current { cases.append(finished) }
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            lineNumber += 1
            if block != nil, let first = line.first, "|~\\".contains(first) {
                if first == "|" {
                    let body = line.dropFirst().hasPrefix(" ") ? line.dropFirst(2) : line.dropFirst()
                    content.lines.append(Array(body.utf8))
                } else if first == "~" {
                    let body = line.dropFirst().hasPrefix(" ") ? String(line.dropFirst(2)) : String(line.dropFirst())
                    guard let bytes = TextLines.unescape(body) else { throw fail("bad escape in `\(line)`") }
                    content.lines.append(bytes)
                } else {
                    guard line == "\\ no newline at end", !content.lines.isEmpty else {
                        throw fail("unknown marker `\(line)` (only `\\ no newline at end` after a line)")
                    }
                    content.endsWithNewline = false
                }
                continue
            }
            closeBlock()
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                if current == nil && cases.isEmpty { header.append(line) }
                continue
            }
            if trimmed.hasPrefix("[case ") && trimmed.hasSuffix("]") {
                try closeCase()
                let name = String(trimmed.dropFirst("[case ".count).dropLast()).trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, !name.contains(":") else { throw fail("a case needs a name without `:`") }
                if cases.contains(where: { $0.name == name }) { throw fail("case `\(name)` appears twice") }
                current = TestCase(name: name)
                continue
            }
            guard current != nil else { throw fail("`\(trimmed)` outside a case; start one with `[case NAME]`") }
            let (key, runner, value) = try Self.splitField(trimmed, fail: fail)
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
            case "stdout": block = .stdout(runner)
            case "stderr": block = .stderr(runner)
            case "status":
                guard let status = Self.parseStatus(value) else {
                    throw fail("status must be `exit N`, `signal NAME` or `timeout`, not `\(value)`")
                }
                current!.set(\.status, status, runner: runner)
            default:
                throw fail("unknown field `\(key)` (args, env, stdin, stdout, stderr, status)")
            }
            if block != nil && !value.isEmpty { throw fail("`\(key):` takes its content on the following `|` lines") }
        }
        try closeCase()
        while header.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { header.removeLast() }
    }

    /// `stdout @qemu:` → ("stdout", "qemu", ""); `status: exit 0` → ("status", nil, "exit 0").
    private static func splitField(
        _ line: String, fail: (String) -> FileError
    ) throws -> (String, String?, String) {
        guard let colon = line.firstIndex(of: ":") else { throw fail("expected `field: value`, got `\(line)`") }
        let keyPart = line[..<colon]
        var key = String(keyPart)
        var runner: String?
        var valueStart = line.index(after: colon)
        if let at = keyPart.firstIndex(of: "@") {
            key = keyPart[..<at].trimmingCharacters(in: .whitespaces)
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
            runner = afterAt[..<end].trimmingCharacters(in: .whitespaces)
            valueStart = afterAt.index(after: end)
        }
        return (key.trimmingCharacters(in: .whitespaces), runner, line[valueStart...].trimmingCharacters(in: .whitespaces))
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

extension TestCase {
    mutating func set<Value>(_ field: WritableKeyPath<Expected, Value?>, _ value: Value, runner: String?) {
        if let runner {
            overrides[runner, default: Expected()][keyPath: field] = value
        } else {
            expected[keyPath: field] = value
        }
    }
}
