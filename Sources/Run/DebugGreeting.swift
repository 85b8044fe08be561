import Support

/// What `asmrun debug` says once gdb stopped: the commands a learner needs first, how to break
/// at a local label (nasm names `.loop` under `_start` `_start.loop`), and how to start again.
enum DebugGreeting {
    static func lines(program: String, emulated: Bool) -> [String] {
        let name = DisplayText.escape(PathName.lastComponent(of: program))
        let local = (try? Files.read(program)).flatMap { firstLocalLabel(String(decoding: $0, as: UTF8.self)) }.map(DisplayText.escape)
        let label =
            local.map { local in
                let short = local[local.firstIndex(of: ".")!...]
                return "asmrun: a local label is named with the label above it: `\(short)` under `\(local.prefix { $0 != "." })` "
                    + "is `break \(local)`; `break NAME` stops at any label, `break \(name):LINE` at a line."
            } ?? "asmrun: `break LABEL` stops at a label (a local `.loop` under `_start` is `_start.loop`), `break \(name):LINE` at a line."
        let restart =
            emulated
            ? "asmrun: the program runs under qemu, which cannot start it again: to restart, quit (q) and run asmrun debug again."
            : "asmrun: run (r) starts the program again from the beginning; quit (q) leaves."
        return [
            "asmrun: stopped where \(name) starts. stepi (si) runs one instruction, next (n) one line, info registers (i r) shows "
                + "them, layout src the source, continue (c) runs on.",
            label, restart,
        ]
    }

    /// The first local label of `source` with the label it belongs to: `.loop:` after `_start:`
    /// is `_start.loop`, as nasm names it in the symbol table.
    static func firstLocalLabel(_ source: String) -> String? {
        var owner: Substring?
        for line in source.split(separator: "\n") {
            let code = line.drop { $0 == " " || $0 == "\t" }
            guard let colon = code.firstIndex(of: ":") else { continue }
            let label = code[..<colon]
            guard !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber || "._?$@#~".contains($0) }) else { continue }
            if label.hasPrefix("..") { continue }
            if label.hasPrefix(".") {
                if let owner { return String(owner) + label }
            } else {
                owner = label
            }
        }
        return nil
    }

    /// Text for gdb's `echo`, whose backslashes start escapes.
    static func echoed(_ text: String) -> String {
        text.replacing("\\", with: "\\\\")
    }

    /// One word for the shell gdb starts the program with: `'a b'`, `'it'\''s'`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
