import Support

/// A trace's entries as text, one line per visit (its events below it) and per folded loop.
package enum TraceText {
    /// `  9  add eax, ecx            rax=4 ZF=0`, the file named when it is not `main`'s.
    package static func render(_ entry: TraceEntry, main: String, thirtyTwoBit: Bool) -> String {
        switch entry {
        case .visit(let visit):
            let place = visit.file == main ? String(visit.line) : "\(PathName.lastComponent(of: visit.file)):\(visit.line)"
            let text = DisplayText.escape(visit.text)
            let changes = self.changes(visit, thirtyTwoBit: thirtyTwoBit)
            var line =
                String(repeating: " ", count: max(0, 5 - place.count)) + place + "  "
                + (changes.isEmpty ? text : padded(text, to: 30) + "  " + changes)
            for event in visit.events { line += "\n" + String(repeating: " ", count: 9) + "→ " + DisplayText.escape(event) }
            return line + "\n"
        case .loop(let file, let first, let last, let passes, let lastPass, let calls):
            let lines = first == last ? "line \(first)" : "lines \(first)–\(last)"
            let called = calls.map { DisplayText.escape(PathName.lastComponent(of: $0)) }.joined(separator: ", ")
            let place =
                (file == main ? lines : "\(DisplayText.escape(PathName.lastComponent(of: file))) \(lines)")
                + (calls.isEmpty ? "" : " (with what they call in \(called))")
            let changes = self.changes(lastPass, thirtyTwoBit: thirtyTwoBit)
            var line =
                String(repeating: " ", count: 7) + "\(place) ran \(passes) times" + (changes.isEmpty ? "" : "; last pass: " + changes)
            for event in lastPass.events.suffix(3) { line += "\n" + String(repeating: " ", count: 9) + "→ " + DisplayText.escape(event) }
            return line + "\n"
        }
    }

    /// `rax=4 ZF=1 total=10 (was 6)`.
    static func changes(_ visit: TraceVisit, thirtyTwoBit: Bool) -> String {
        let registers = visit.registers.map { "\($0.name)=\(TraceFormat.value($0.value, thirtyTwoBit: thirtyTwoBit))" }
        let flags = visit.flags.map { "\($0.name)=\($0.value)" }
        let memory = visit.memory.map { write in
            let name = write.symbol.map(DisplayText.escape) ?? "[0x\(String(write.address, radix: 16))]"
            let was = write.old.count > 8 && write.old.allSatisfy { $0 == 0 } ? "" : " (was \(TraceFormat.memory(write.old)))"
            return "\(name)=\(TraceFormat.memory(write.new))" + was
        }
        return (registers + flags + memory).joined(separator: " ")
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
