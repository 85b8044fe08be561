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
        var lowered = AsmLex.lower(word)
        var repeated = false
        while InstructionTable.prefixes.contains(lowered) {
            repeated = repeated || lowered.hasPrefix("rep")
            guard let next = AsmLex.word(&rest) else { return }
            (word, lowered, mayBeLabel) = (next, AsmLex.lower(next), false)
        }
        if lowered == "times" {
            // `times COUNT instruction`: the count is an expression; the instruction is the first
            // word the check knows.
            guard let known = AsmLex.words(rest).first(where: isKnown) else { return }
            (word, lowered, mayBeLabel) = (known, AsmLex.lower(known), false)
            rest = AsmLex.trimmed(rest[known.endIndex...])
        }
        classify(word, lowered, rest, repeated: repeated, origin, mayBeLabel: mayBeLabel, substitutions: substitutions)
    }

    private mutating func classify(
        _ word: AsmLex.Bytes, _ lowered: String, _ rest: AsmLex.Bytes, repeated: Bool, _ origin: Origin, mayBeLabel: Bool,
        substitutions: Int
    ) {
        if let candidates = macro(named: word, lowered) { return invoke(candidates, name: AsmLex.string(word), rest, origin) }
        if let definition = symbols.definition(word) {
            guard definition.parameters.isEmpty, substitutions < 4 else { return barrier(origin) }
            return statement(AsmLex.trimmed((definition.body + [AsmLex.space] + rest)[...]), origin, substitutions: substitutions + 1)
        }
        switch lowered {
        case "equ":
            symbols.numbers[lastLabel] = symbols.value(rest)
            return
        case "section", "segment": return section(rest, origin)
        case "absolute":
            inCode = false
            return
        case "struc":
            inStructure = true
            return
        default: break
        }
        if InstructionTable.data.contains(lowered) { return barrier(origin) }
        if InstructionTable.directives.contains(lowered) { return }
        if let kind = InstructionTable.kind(lowered) { return instruction(kind, lowered, rest, repeated, origin) }
        if rest.isEmpty {
            // An unknown word alone is a label to nasm (`sycall`); where a macro may hide behind
            // it (an include the check could not read), nothing is followed past it either.
            if listing.incomplete { barrier(origin) }
            return label(word)
        }
        var after = rest
        if mayBeLabel, let next = AsmLex.word(&after), isKnown(next) {
            if AsmLex.equals(next, "equ") {
                symbols.numbers[AsmLex.string(word)] = symbols.value(after)
                return
            }
            label(word)
            return classify(next, AsmLex.lower(next), after, repeated: repeated, origin, mayBeLabel: false, substitutions: substitutions)
        }
        instruction(listing.incomplete ? nil : .write, lowered, rest, repeated, origin)
    }

    /// The macros named `word` (`%macro` in its case, `%imacro` in any).
    private func macro(named word: AsmLex.Bytes, _ lowered: String) -> [Macro]? {
        if macros.isEmpty && caselessMacros.isEmpty { return nil }
        return macros[AsmLex.string(word)] ?? caselessMacros[lowered]
    }

    /// A word that starts a line's real content: a mnemonic, prefix, directive, data or macro.
    private func isKnown(_ word: AsmLex.Bytes) -> Bool {
        let lowered = AsmLex.lower(word)
        return InstructionTable.kind(lowered) != nil || InstructionTable.prefixes.contains(lowered)
            || InstructionTable.data.contains(lowered)
            || InstructionTable.directives.contains(lowered) || ["equ", "times", "section", "segment"].contains(lowered)
            || macro(named: word, lowered) != nil
    }

    /// Expands a macro use here: its body, parameters in place, as lines of this line.
    private mutating func invoke(_ candidates: [Macro], name: String, _ rest: AsmLex.Bytes, _ origin: Origin) {
        var arguments = AsmLex.split(rest, braces: true)
        guard let macro = candidates.first(where: { ($0.minimum...$0.maximum).contains(arguments.count) }) ?? candidates.first,
            depth < Self.depthLimit
        else { return barrier(origin) }
        if macro.greedy && macro.maximum > 0 && arguments.count > macro.maximum {
            let tail = arguments[(macro.maximum - 1)...].map(Array.init).joined(separator: [AsmLex.comma, AsmLex.space])
            arguments = Array(arguments[..<(macro.maximum - 1)]) + [Array(tail)[...]]
        }
        depth += 1
        defer { depth -= 1 }
        invocations += 1
        var expansion: Expansion? = Expansion(arguments: arguments.map(Array.init), id: invocations, name: name)
        var here = origin
        if here.macro < 0 {
            here.macro = Int32(listing.macros.count)
            listing.macros.append(name)
        }
        var block = Block()
        for line in macro.body where expansion?.exitedMacro != true && !exhausted { self.line(line[...], here, &block, &expansion) }
    }

    /// An instruction of the code (outside code sections, nothing); `nil`: one the check cannot
    /// read, a stop.
    private mutating func instruction(
        _ kind: InstructionTable.Kind?, _ mnemonic: String, _ rest: AsmLex.Bytes, _ repeated: Bool, _ origin: Origin
    ) {
        guard inCode else { return }
        guard let kind else { return barrier(origin) }
        let decoder = InstructionDecoder(symbols: symbols, previous: listing.instructions.last)
        var (instruction, target) = decoder.decode(kind, mnemonic, AsmLex.split(rest), repeated: repeated)
        (instruction.file, instruction.line, instruction.macro) = (origin.file, origin.line, origin.macro)
        instruction.mnemonic = listing.intern(repeated && kind == .string ? "rep " + mnemonic : mnemonic)
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
        let words = AsmLex.words(rest).map(AsmLex.lower)
        guard let name = words.first else { return }
        let attributes = words.dropFirst()
        guard name.contains("text") ? !attributes.contains("noexec") : attributes.contains("exec") else {
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
