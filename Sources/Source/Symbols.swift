/// A source's single-line macros (`%define`, `-D`) and numeric constants (`equ`, `%assign`), as
/// far as the syscall check needs them: a register given another name (`%define counter rcx`), a
/// system call number given a name (`SYS_EXIT equ 60`), a condition of `%ifdef` or `%if`.
struct Symbols {
    /// A `%define`: its parameters (for `NAME(a, b)`) and its text.
    struct Define {
        var parameters: [String] = []
        var body: [UInt8]
    }

    var defines: [String: Define] = [:]
    /// `%idefine`s, by their lower-case name.
    var caseless: [String: Define] = [:]
    var numbers: [String: Int64] = [:]
    /// A define beyond nasm's own was made: words are looked up (otherwise only `__…__` names).
    private var userDefined = false

    /// What nasm itself defines for an elf64 build.
    init(commandLine: [String]) {
        for (name, value) in [("__OUTPUT_FORMAT__", "elf64"), ("__?OUTPUT_FORMAT?__", "elf64"), ("__BITS__", "64"), ("__?BITS?__", "64")] {
            defines[name] = Define(body: Array(value.utf8))
        }
        numbers["__BITS__"] = 64
        for definition in commandLine {
            let parts = definition.split(separator: "=", maxSplits: 1)
            guard let name = parts.first else { continue }
            define(String(name), body: parts.count > 1 ? Array(parts[1].utf8) : [])
        }
    }

    mutating func define(_ name: String, parameters: [String] = [], body: [UInt8], caseless: Bool = false) {
        userDefined = true
        let definition = Define(parameters: parameters, body: AsmLex.reading(body) { Array(AsmLex.trimmed($0)) })
        if caseless { self.caseless[name.lowercased()] = definition } else { defines[name] = definition }
        if parameters.isEmpty, let value = AsmLex.reading(definition.body, self.value) { numbers[name] = value }
    }

    mutating func undefine(_ name: String) {
        defines[name] = nil
        caseless[name.lowercased()] = nil
        numbers[name] = nil
    }

    /// The `%define` named `word`, if any.
    func definition(_ word: AsmLex.Bytes) -> Define? {
        guard userDefined || word.first == AsmLex.underscore else { return nil }
        return defines[AsmLex.string(word)] ?? (caseless.isEmpty ? nil : caseless[AsmLex.lower(word)])
    }

    /// The word a chain of parameterless `%define`s makes of `word` (`counter` → `rcx`); `nil`
    /// when none applies.
    func alias(_ word: AsmLex.Bytes) -> [UInt8]? {
        guard var definition = definition(word), definition.parameters.isEmpty else { return nil }
        var current: [UInt8]?
        for _ in 0..<4 {
            let single = AsmLex.reading(definition.body) { body -> [UInt8]? in
                var rest = body
                guard let single = AsmLex.word(&rest), rest.isEmpty else { return nil }
                return Array(single)
            }
            guard let single else { break }
            current = single
            guard let next = AsmLex.reading(single, self.definition), next.parameters.isEmpty else { break }
            definition = next
        }
        return current
    }

    /// The value of `text` when it is an integer or names one; `nil` for anything else.
    func value(_ text: AsmLex.Bytes) -> Int64? {
        let text = AsmLex.trimmed(text)
        if let number = AsmLex.integer(text) { return number }
        var rest = text
        guard let word = AsmLex.word(&rest), rest.isEmpty else { return nil }
        if let number = numbers[AsmLex.string(word)] { return number }
        guard let aliased = alias(word) else { return nil }
        return AsmLex.integer(aliased) ?? numbers[AsmLex.string(aliased)]
    }

    /// Whether `%if`'s expression holds: an integer, a name of one, or two compared with `==`,
    /// `=`, `!=`, `<>`, `<`, `>`, `<=`, `>=`; `nil` when the check cannot tell.
    func holds(_ expression: AsmLex.Bytes) -> Bool? {
        if let value = value(expression) { return value != 0 }
        for symbol in ["==", "!=", "<>", "<=", ">=", "=", "<", ">"] {
            let operator_ = Array(symbol.utf8)
            guard let found = expression.indices.first(where: { expression[$0...].starts(with: operator_) }) else { continue }
            guard let left = value(expression[..<found]), let right = value(expression[(found + operator_.count)...]) else { return nil }
            switch symbol {
            case "==", "=": return left == right
            case "!=", "<>": return left != right
            case "<=": return left <= right
            case ">=": return left >= right
            case "<": return left < right
            default: return left > right
            }
        }
        return nil
    }

    /// `%ifidn`'s test: both sides the same text once each word is replaced by its `%define`.
    func identical(_ arguments: AsmLex.Bytes, ignoringCase: Bool) -> Bool? {
        let sides = AsmLex.split(arguments)
        guard sides.count == 2 else { return nil }
        let texts = sides.map { side in
            AsmLex.words(side).map { word in
                let name = alias(word) ?? Array(word)
                return ignoringCase ? AsmLex.lower(name) : AsmLex.string(name)
            }
        }
        return texts[0] == texts[1]
    }
}
