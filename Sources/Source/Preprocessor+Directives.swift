import Support

extension Preprocessor {
    /// A `%` line: conditions (followed even where the code is skipped), includes, macro and
    /// symbol definitions, `%rep`, `%rotate`; others change nothing the check reads.
    mutating func directive(_ code: AsmLex.Bytes, _ origin: Origin, _ block: inout Block, _ expansion: inout Expansion?) {
        var rest = code.dropFirst()
        guard let word = AsmLex.word(&rest) else { return }
        let name = AsmLex.lower(word)
        if condition(name, rest, origin, &block) { return }
        guard block.active else { return }
        switch name {
        case "include": include(rest)
        case "macro", "imacro", "rmacro", "rimacro": startDefinition(rest, caseless: name.contains("i"), &block)
        case "define", "xdefine", "idefine", "ixdefine": define(rest, caseless: name.hasPrefix("i"))
        case "assign", "iassign":
            guard let target = AsmLex.word(&rest) else { return }
            let value = symbols.value(rest).map { Array(String($0).utf8) } ?? Array(rest)
            symbols.define(AsmLex.string(target), body: value, caseless: name == "iassign")
        case "undef": if let target = AsmLex.word(&rest) { symbols.undefine(AsmLex.string(target)) }
        case "unmacro", "unimacro": if let target = AsmLex.word(&rest) { macros[AsmLex.string(target)] = nil }
        case "rep":
            // In a file, a `%rep` body is read once (its lines follow); in a macro, as often as it
            // says (up to 64): `%rep %0` / `push %1` / `%rotate 1` pushes every parameter.
            guard expansion != nil else { return }
            let count = symbols.value(rest).map { Int(max(0, min($0, 64))) } ?? 1
            block.repetition = (count, 0, [])
        case "exitrep": expansion?.exitedRepetition = true
        case "exitmacro": expansion?.exitedMacro = true
        case "rotate":
            guard var current = expansion, !current.arguments.isEmpty, let by = symbols.value(rest) else { return }
            let shift = Int(((by % Int64(current.arguments.count)) + Int64(current.arguments.count)) % Int64(current.arguments.count))
            current.arguments = Array(current.arguments[shift...] + current.arguments[..<shift])
            expansion = current
        default: break
        }
    }

    /// `%if…`, `%elif…`, `%else`, `%endif`; `false` for any other directive.
    private mutating func condition(_ name: String, _ rest: AsmLex.Bytes, _ origin: Origin, _ block: inout Block) -> Bool {
        let last = block.conditions.indices.last
        switch name {
        case "endif":
            _ = block.conditions.popLast()
        case "else":
            if let last { block.conditions[last] = [.taking: .done, .waiting: .taking][block.conditions[last]] ?? block.conditions[last] }
        case _ where name.hasPrefix("elif"):
            guard let last else { return true }
            switch block.conditions[last] {
            case .taking: block.conditions[last] = .done
            case .waiting: block.conditions[last] = decide(String(name.dropFirst(4)), rest, origin)
            default: break
            }
        case _ where name.hasPrefix("if"):
            block.conditions.append(block.active ? decide(String(name.dropFirst(2)), rest, origin) : .skipping)
        default:
            return false
        }
        return true
    }

    /// A condition's branch: taken, not taken, or (undecided) every branch hidden behind a stop.
    private mutating func decide(_ test: String, _ rest: AsmLex.Bytes, _ origin: Origin) -> Block.Condition {
        guard let holds = evaluate(test, rest) else {
            barrier(origin)
            return .skipping
        }
        return holds ? .taking : .waiting
    }

    private func evaluate(_ test: String, _ rest: AsmLex.Bytes) -> Bool? {
        let negated = test.hasPrefix("n") && test != "num"
        var argument = rest
        let subject = AsmLex.word(&argument)
        let result: Bool? =
            switch negated ? String(test.dropFirst()) : test {
            case "": symbols.holds(rest)
            case "def": subject.map { symbols.definition($0) != nil }
            case "idn": symbols.identical(rest, ignoringCase: false)
            case "idni": symbols.identical(rest, ignoringCase: true)
            case "macro": subject.map { macros[AsmLex.string($0)] != nil || caselessMacros[AsmLex.lower($0)] != nil }
            default: nil
            }
        return result.map { $0 != negated }
    }

    /// `%include "name"`: the file it resolved to, read here; one that cannot be (not found, or
    /// named through a macro) leaves the listing incomplete.
    private mutating func include(_ rest: AsmLex.Bytes) {
        let quoted = AsmLex.trimmed(rest)
        guard let open = quoted.first, [AsmLex.doubleQuote, AsmLex.singleQuote, AsmLex.backquote, UInt8(ascii: "<")].contains(open),
            quoted.count > 2, let path = includes[AsmLex.string(quoted.dropFirst().dropLast())], depth < Self.depthLimit,
            let bytes = contents[path] ?? (try? Files.read(path)), !bytes.prefix(4096).contains(0)
        else {
            listing.incomplete = true
            return
        }
        depth += 1
        defer { depth -= 1 }
        process(path: path, bytes: bytes)
    }

    /// `%define NAME BODY` or `%define NAME(a, b) BODY`.
    private mutating func define(_ rest: AsmLex.Bytes, caseless: Bool) {
        var rest = rest
        guard let name = AsmLex.word(&rest) else { return }
        var parameters: [String] = []
        if name.endIndex < rest.startIndex || rest.first != AsmLex.openParenthesis {
            // `NAME (x)` with a blank is a body starting with a parenthesis.
        } else if let close = rest.firstIndex(of: AsmLex.closeParenthesis) {
            parameters = AsmLex.split(rest[(rest.startIndex + 1)..<close]).map(AsmLex.string)
            rest = AsmLex.trimmed(rest[(close + 1)...])
        }
        symbols.define(AsmLex.string(name), parameters: parameters, body: Array(rest), caseless: caseless)
    }

    /// `%macro NAME N`, `N-M`, `N-*`, `N+`: the lines up to `%endmacro` are its body.
    private mutating func startDefinition(_ rest: AsmLex.Bytes, caseless: Bool, _ block: inout Block) {
        var rest = rest
        guard let name = AsmLex.word(&rest) else { return }
        var macro = Macro()
        var index = rest.startIndex
        func number() -> Int? {
            var value: Int?
            while index < rest.endIndex, rest[index] >= 0x30 && rest[index] <= 0x39 {
                value = (value ?? 0) * 10 + Int(rest[index] - 0x30)
                index += 1
            }
            return value
        }
        macro.minimum = min(number() ?? 0, 1000)
        macro.maximum = macro.minimum
        if index < rest.endIndex && rest[index] == AsmLex.minus {
            index += 1
            if index < rest.endIndex && rest[index] == UInt8(ascii: "*") {
                (macro.maximum, index) = (Int.max, index + 1)
            } else {
                macro.maximum = max(macro.minimum, min(number() ?? macro.minimum, 1000))
            }
        }
        macro.greedy = index < rest.endIndex && rest[index] == AsmLex.plus
        block.definition = (caseless ? AsmLex.lower(name) : AsmLex.string(name), caseless, macro, 0)
    }

    /// A line of a macro being defined; `%endmacro` at its own level ends it.
    mutating func collectDefinition(_ raw: AsmLex.Bytes, _ block: inout Block) {
        guard var definition = block.definition else { return }
        let code = AsmLex.code(raw)
        switch Self.directiveName(code) {
        case "macro", "imacro", "rmacro", "rimacro": definition.depth += 1
        case "endmacro", "endm":
            if definition.depth == 0 {
                block.definition = nil
                if let first = definition.name.utf8.first { macroInitials[Int(AsmLex.lowercased(first))] = true }
                if definition.caseless {
                    caselessMacros[definition.name, default: []].append(definition.macro)
                } else {
                    macros[definition.name, default: []].append(definition.macro)
                }
                return
            }
            definition.depth -= 1
        default: break
        }
        definition.macro.body.append(Array(code))
        block.definition = definition
    }

    /// A line of a macro's `%rep` body; at its `%endrep` the body runs its count of times.
    mutating func collectRepetition(_ raw: AsmLex.Bytes, _ origin: Origin, _ block: inout Block, _ expansion: inout Expansion?) {
        guard var repetition = block.repetition else { return }
        switch Self.directiveName(AsmLex.code(raw)) {
        case "rep": repetition.depth += 1
        case "endrep" where repetition.depth == 0:
            block.repetition = nil
            for _ in 0..<repetition.count {
                var inner = Block()
                for line in repetition.body where expansion?.exitedRepetition != true {
                    AsmLex.reading(line) { self.line($0, origin, &inner, &expansion) }
                }
                if expansion?.exitedRepetition == true || exhausted { break }
            }
            expansion?.exitedRepetition = false
            return
        case "endrep": repetition.depth -= 1
        default: break
        }
        repetition.body.append(Array(raw))
        block.repetition = repetition
    }

    /// The lower-case name of a `%` directive line, or `nil`.
    static func directiveName(_ code: AsmLex.Bytes) -> String? {
        guard code.first == AsmLex.percent else { return nil }
        var rest = code.dropFirst()
        return AsmLex.word(&rest).map(AsmLex.lower)
    }
}
