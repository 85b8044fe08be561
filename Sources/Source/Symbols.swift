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
        let definition = Define(parameters: parameters, body: Array(AsmLex.trimmed(body[...])))
        if caseless { self.caseless[name.lowercased()] = definition } else { defines[name] = definition }
        if parameters.isEmpty, let value = self.value(definition.body[...]) { numbers[name] = value }
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

    /// `word`, or the word a chain of parameterless `%define`s makes of it (`counter` → `rcx`).
    func alias(_ word: AsmLex.Bytes) -> AsmLex.Bytes {
        var current = word
        for _ in 0..<4 {
            guard let definition = definition(current), definition.parameters.isEmpty else { return current }
            var rest = definition.body[...]
            guard let single = AsmLex.word(&rest), rest.isEmpty else { return current }
            current = single
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
        let aliased = alias(word)
        return aliased == word ? nil : AsmLex.integer(aliased) ?? numbers[AsmLex.string(aliased)]
    }

    /// Whether `%if`'s expression holds: an integer, a name of one, or two compared with `==`,
    /// `=`, `!=`, `<>`, `<`, `>`, `<=`, `>=`; `nil` when the check cannot tell.
    func holds(_ expression: AsmLex.Bytes) -> Bool? {
        if let value = value(expression) { return value != 0 }
        let bytes = Array(expression)
        for symbol in ["==", "!=", "<>", "<=", ">=", "=", "<", ">"] {
            let operator_ = Array(symbol.utf8)
            guard let found = bytes.firstRange(of: operator_) else { continue }
            guard let left = value(bytes[..<found.lowerBound]), let right = value(bytes[found.upperBound...]) else { return nil }
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
            AsmLex.words(side).map { word in ignoringCase ? AsmLex.lower(alias(word)) : AsmLex.string(alias(word)) }
        }
        return texts[0] == texts[1]
    }
}
