extension Preprocessor {
    /// A line of code: labels, prefixes, then an instruction, a macro use, data or a directive.
    mutating func statement(_ code: AsmLex.Bytes, _ origin: Origin, substitutions: Int = 0) {
        if inStructure {
            if AsmLex.words(code).contains(where: { AsmLex.equals($0, "endstruc") }) { inStructure = false }
            return
        }
        if code.first == AsmLex.openBracket { return bracketed(code, origin) }
        var rest = code
        guard var word = AsmLex.word(&rest) else { return }
        var mayBeLabel = true
        if rest.first == AsmLex.colon {
            rest = AsmLex.trimmed(rest.dropFirst())
            label(word)
            guard let next = AsmLex.word(&rest) else { return }
            (word, mayBeLabel) = (next, false)
        }
        var known = WordKey(word).flatMap(InstructionTable.word)
        var repeated = false
        while case .prefix(let repeats)? = known {
            repeated = repeated || repeats
            guard let next = AsmLex.word(&rest) else { return }
            (word, known, mayBeLabel) = (next, WordKey(next).flatMap(InstructionTable.word), false)
        }
        if known == .times {
            // `times COUNT instruction`: the count is an expression; the instruction is the first
            // word the check knows.
            guard let found = AsmLex.words(rest).first(where: isKnown) else { return }
            (word, known, mayBeLabel) = (found, WordKey(found).flatMap(InstructionTable.word), false)
            rest = AsmLex.trimmed(rest[found.endIndex...])
        }
        classify(word, known, rest, repeated: repeated, origin, mayBeLabel: mayBeLabel, substitutions: substitutions)
    }

    private mutating func classify(
        _ word: AsmLex.Bytes, _ known: InstructionTable.Word?, _ rest: AsmLex.Bytes, repeated: Bool, _ origin: Origin,
        mayBeLabel: Bool, substitutions: Int
    ) {
        if let candidates = macro(named: word) { return invoke(candidates, name: AsmLex.string(word), rest, origin) }
        if let definition = symbols.definition(word) {
            guard definition.parameters.isEmpty, substitutions < 4 else { return barrier(origin) }
            return AsmLex.reading(definition.body + [AsmLex.space] + rest) {
                statement(AsmLex.trimmed($0), origin, substitutions: substitutions + 1)
            }
        }
        switch known {
        case .instruction(let kind, let traits)?: return instruction(kind, traits, word, rest, repeated, origin)
        case .equ?: symbols.numbers[lastLabel] = symbols.value(rest)
        case .section?: section(rest, origin)
        case .absolute?: inCode = false
        case .structure?: inStructure = true
        case .data?: barrier(origin)
        case .directive?, .prefix?, .times?: break
        case nil: unknown(word, rest, repeated: repeated, origin, mayBeLabel: mayBeLabel, substitutions: substitutions)
        }
    }

    /// A word the check does not know: a label (alone, or before a known word), else an
    /// instruction it has no entry for.
    private mutating func unknown(
        _ word: AsmLex.Bytes, _ rest: AsmLex.Bytes, repeated: Bool, _ origin: Origin, mayBeLabel: Bool, substitutions: Int
    ) {
        if rest.isEmpty {
            // An unknown word alone is a label to nasm (`sycall`); where a macro may hide behind
            // it (an include the check could not read), nothing is followed past it either.
            if listing.incomplete { barrier(origin) }
            return label(word)
        }
        var after = rest
        if mayBeLabel, let next = AsmLex.word(&after), isKnown(next) {
            let known = WordKey(next).flatMap(InstructionTable.word)
            if known == .equ {
                symbols.numbers[AsmLex.string(word)] = symbols.value(after)
                return
            }
            label(word)
            return classify(next, known, after, repeated: repeated, origin, mayBeLabel: false, substitutions: substitutions)
        }
        if listing.incomplete { return barrier(origin) }
        instruction(.write, [], word, rest, repeated, origin)
    }

    /// The macros named `word` (`%macro` in its case, `%imacro` in any); most words are ruled
    /// out by their first byte without a lookup.
    private func macro(named word: AsmLex.Bytes) -> [Macro]? {
        guard let first = word.first, macroInitials[Int(AsmLex.lowercased(first))] else { return nil }
        return macros[AsmLex.string(word)] ?? caselessMacros[AsmLex.lower(word)]
    }

    /// A word that starts a line's real content: a mnemonic, prefix, directive, data or macro.
    private func isKnown(_ word: AsmLex.Bytes) -> Bool {
        WordKey(word).flatMap(InstructionTable.word) != nil || macro(named: word) != nil
    }

    /// Expands a macro use here: its body, parameters in place, as lines of this line.
    private mutating func invoke(_ candidates: [Macro], name: String, _ rest: AsmLex.Bytes, _ origin: Origin) {
        var arguments = AsmLex.split(rest, braces: true).map(Array.init)
        guard let macro = candidates.first(where: { ($0.minimum...$0.maximum).contains(arguments.count) }) ?? candidates.first,
            depth < Self.depthLimit
        else { return barrier(origin) }
        if macro.greedy && macro.maximum > 0 && arguments.count > macro.maximum {
            let tail = arguments[(macro.maximum - 1)...].joined(separator: [AsmLex.comma, AsmLex.space])
            arguments = Array(arguments[..<(macro.maximum - 1)]) + [Array(tail)]
        }
        depth += 1
        defer { depth -= 1 }
        invocations += 1
        var expansion: Expansion? = Expansion(arguments: arguments, id: invocations, name: name)
        var here = origin
        if here.macro < 0 {
            here.macro = Int32(listing.macros.count)
            listing.macros.append(name)
        }
        var block = Block()
        for line in macro.body where expansion?.exitedMacro != true && !exhausted {
            AsmLex.reading(line) { self.line($0, here, &block, &expansion) }
        }
    }

    /// An instruction of the code (outside code sections, nothing).
    private mutating func instruction(
        _ kind: InstructionTable.Kind, _ traits: InstructionTable.Traits, _ mnemonic: AsmLex.Bytes, _ rest: AsmLex.Bytes,
        _ repeated: Bool, _ origin: Origin
    ) {
        guard inCode else { return }
        let decoder = InstructionDecoder(symbols: symbols, previous: listing.instructions.last)
        var (instruction, target) = decoder.decode(kind, traits, AsmLex.split(rest), repeated: repeated)
        (instruction.file, instruction.line, instruction.macro) = (origin.file, origin.line, origin.macro)
        instruction.mnemonic = listing.intern(mnemonic, repeated: repeated && kind == .string)
        if let target {
            listing.references.append((Int32(listing.instructions.count), unit, qualified(AsmLex.string(target))))
        }
        emit(instruction)
    }

    private mutating func emit(_ instruction: Instruction) {
        var instruction = instruction
        instruction.labelled = pendingLabel
        pendingLabel = false
        listing.instructions.append(instruction)
    }

    /// Where the code cannot be followed (data, an undecided condition, a source's end).
    mutating func barrier(_ origin: Origin) {
        guard inCode else { return }
        if let last = listing.instructions.last, last.flow == .stop, !pendingLabel { return }
        var stop = Instruction()
        (stop.file, stop.line, stop.macro, stop.flow) = (origin.file, origin.line, origin.macro, .stop)
        emit(stop)
    }

    /// The end of a source: its code stops here, whatever section it ended in.
    mutating func finish() {
        inCode = true
        barrier(Origin(file: Int32(max(0, listing.files.count - 1)), line: 0))
    }

    /// A label: `.x` belongs to the last non-local label; `..@` labels (a macro's `%%x`) to none.
    mutating func label(_ word: AsmLex.Bytes) {
        var name = AsmLex.string(word)
        if name.hasPrefix("..@") {
        } else if name.hasPrefix(".") {
            name = scope + name
        } else {
            scope = name
        }
        lastLabel = name
        guard inCode else { return }
        if listing.labels[unit][name] == nil { listing.labels[unit][name] = Int32(listing.instructions.count) }
        pendingLabel = true
    }

    private func qualified(_ name: String) -> String {
        name.hasPrefix(".") && !name.hasPrefix("..@") ? scope + name : name
    }

    /// `section NAME [attributes]`: code goes on where the same code section left off; another
    /// code section starts after a stop; other sections hold no code.
    private mutating func section(_ rest: AsmLex.Bytes, _ origin: Origin) {
        let words = AsmLex.words(rest)
        guard let first = words.first else { return }
        let name = AsmLex.lower(first)
        let attributes = words.dropFirst()
        let text = name.hasPrefix(".text") || name.hasSuffix("text")
        guard
            text ? !attributes.contains(where: { AsmLex.equals($0, "noexec") }) : attributes.contains(where: { AsmLex.equals($0, "exec") })
        else {
            inCode = false
            return
        }
        inCode = true
        if name != codeSection { barrier(origin) }
        codeSection = name
    }

    /// `[section .data]`, `[absolute 0]`; other bracketed directives change nothing read here.
    private mutating func bracketed(_ code: AsmLex.Bytes, _ origin: Origin) {
        var rest = AsmLex.trimmed(code.dropFirst())
        if rest.last == AsmLex.closeBracket { rest = rest.dropLast() }
        guard let word = AsmLex.word(&rest) else { return }
        if AsmLex.equals(word, "section") || AsmLex.equals(word, "segment") { section(rest, origin) }
        if AsmLex.equals(word, "absolute") { inCode = false }
    }
}
