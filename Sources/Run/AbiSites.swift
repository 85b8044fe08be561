import Support

/// Where the ABI checks stop a program (`AbiCheck`): read from `objdump -t -d -l` of the debug
/// build, keeping the instructions of the program's assembly sources (C and libc are not
/// stopped in). Each site is a breakpoint that prints the stack pointer, the word on top of the
/// stack and the callee-saved registers.
struct AbiSites: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The first instruction of a global function of the assembly (`main`, a function C calls).
        case entry
        /// A `call`: `external` when it leaves the assembly (libc, the PLT, the program's C, the
        /// GOT), `nil` when it goes through a register; `returnSite` is the instruction after it.
        case call(external: Bool?, returnSite: UInt64)
        /// The instruction after an external `call`: back from C.
        case returned
        case ret
    }

    struct Site: Sendable, Equatable {
        var address: UInt64
        var kind: Kind
        var location: FileLocation?
        /// The function entered, called (`printf` in `call printf`), or returned from (the label
        /// above a `ret`, nasm's local `.labels` aside).
        var name: String?
    }

    private(set) var sites: [Site] = []

    /// Reads objdump's output for a program whose assembly sources are `sources` (paths as the
    /// program names them).
    init(objdump text: String, sources: [String]) {
        let names = sources.map { PathName.lastComponent(of: $0) }
        var globals: Set<String> = []
        var instructions: [(address: UInt64, text: Substring, location: FileLocation, label: String?, function: String?)] = []
        var location: FileLocation?
        var label: String?
        var function: String?
        for line in text.split(separator: "\n") {
            if let global = Self.globalSymbol(line) {
                globals.insert(global)
            } else if line.hasSuffix(">:"), let open = line.firstIndex(of: "<") {
                label = String(line[line.index(after: open)..<line.index(line.endIndex, offsetBy: -2)])
                if let label, !label.contains(".") { function = label }
                location = nil
            } else if line.hasPrefix(" "), let colon = line.firstIndex(of: ":"),
                let address = UInt64(line[..<colon].trimmingBlanks(), radix: 16)
            {
                if let location { instructions.append((address, line[line.index(after: colon)...], location, label, function)) }
                label = nil
            } else if !line.hasPrefix(" "), let place = ObjdumpLine.place(line, names: names, sources: sources) {
                location = place
            } else if line.hasSuffix("():") {
                continue
            } else if !line.hasPrefix(" ") {
                location = nil
            }
        }
        let own = Set(instructions.map(\.address))
        for (index, instruction) in instructions.enumerated() {
            if let label = instruction.label, globals.contains(label), label != "_start" {
                sites.append(Site(address: instruction.address, kind: .entry, location: instruction.location, name: label))
            }
            let words = instruction.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let mnemonic = words.first else { continue }
            if mnemonic == "ret" || mnemonic == "retq" || mnemonic == "retn" {
                sites.append(Site(address: instruction.address, kind: .ret, location: instruction.location, name: instruction.function))
            } else if mnemonic == "call" || mnemonic == "callq", index + 1 < instructions.count {
                let next = instructions[index + 1].address
                let (external, name) = Self.callee(words.dropFirst(), own: own)
                sites.append(
                    Site(
                        address: instruction.address, kind: .call(external: external, returnSite: next), location: instruction.location,
                        name: name))
                if external == true {
                    sites.append(Site(address: next, kind: .returned, location: instruction.location, name: name))
                }
            }
        }
    }

    /// `call 401030 <printf@plt>`: external unless its target is the assembly's; `call QWORD PTR
    /// [rip+0x2fe2]  # 403fe8 <printf@GLIBC_2.2.5>`: through the GOT, external; `call rax`: unknown.
    private static func callee(_ operands: ArraySlice<Substring>, own: Set<UInt64>) -> (Bool?, String?) {
        let name = operands.last.flatMap { word -> String? in
            guard word.hasPrefix("<"), word.hasSuffix(">") else { return nil }
            let inner = word.dropFirst().dropLast()
            return String(inner.split(separator: "@").first ?? inner)
        }
        if let first = operands.first, let target = UInt64(first, radix: 16) { return (!own.contains(target), name) }
        if operands.contains(where: { $0.contains("[rip+") }) { return (true, name) }
        return (nil, name)
    }

    /// `0000000000401130 g       .text\t0000000000000000              main`: a global symbol in code.
    private static func globalSymbol(_ line: Substring) -> String? {
        guard let tab = line.firstIndex(of: "\t"), let space = line.firstIndex(of: " "),
            line[line.index(after: space)...].first == "g", line[..<tab].hasSuffix(".text")
        else { return nil }
        return line[line.index(after: tab)...].split(separator: " ").last.map(String.init)
    }

}
