import Build
import Processes
import Source
import Support

/// What gdb printed for a crashed program, read section by section: the inspection commands
/// are separated by `@@NAME` markers, so an error in one section (qemu's gdbstub has no
/// `$_siginfo`) leaves the others intact.
struct GdbTranscript {
    /// The commands run once the program stopped, each section after its marker (on a line of
    /// its own even when a command's output ended without a newline, its error having gone to
    /// stderr); for each
    /// section of code, the line and symbol of its last byte (where a program that ran past its
    /// end came from).
    static func inspection(code: [CodeSection]) -> [String] {
        [
            "echo \\n@@signal\\n", "p $_siginfo.si_code", "p $_siginfo._sifields._sigfault.si_addr",
            "echo \\n@@registers\\n", "info registers",
            "echo \\n@@instruction\\n", "x/i $pc",
            "echo \\n@@line\\n", "info line *$pc",
            "echo \\n@@symbol\\n", "info symbol $pc",
            "echo \\n@@previous\\n", "info line *($pc-1)",
            "echo \\n@@auxv\\n", "info auxv",
        ]
            + code.prefix(8).flatMap { section in
                let last = "0x" + String(section.end - 1, radix: 16)
                return ["echo \\n@@end \(section.name) \(section.end)\\n", "info line *\(last)", "info symbol \(last)"]
            }
            + ["asmrun_caller", "echo \\n@@frames\\n", "bt 12", "echo \\n@@done\\n", "kill"]
    }

    /// A gdb command, `asmrun_caller`, that finds the innermost return address into the
    /// program's own code on the stack: where a library function was called from, when the
    /// debugger cannot unwind it (under qemu's gdbstub it does not know the shared libraries).
    static func callerScript(code: [CodeSection], thirtyTwoBit: Bool) -> String {
        let own = code.filter { !$0.name.hasPrefix(".plt") }.prefix(8)
        guard !own.isEmpty else { return "define asmrun_caller\nend\n" }
        let (type, size, words) = thirtyTwoBit ? ("unsigned int", 4, 1024) : ("unsigned long", 8, 1024)
        let inside = own.map { "($asmrun_word >= 0x\(String($0.start, radix: 16)) && $asmrun_word < 0x\(String($0.end, radix: 16)))" }
        return """
            define asmrun_caller
              set $asmrun_i = 0
              while $asmrun_i < \(words)
                set $asmrun_word = *(\(type) *)($sp + $asmrun_i * \(size))
                if \(inside.joined(separator: " || "))
                  echo \\n@@caller\\n
                  p/x $sp + $asmrun_i * \(size) + \(size)
                  info line *($asmrun_word - 1)
                  x/i $asmrun_word - 5
                  set $asmrun_i = \(words)
                end
                set $asmrun_i = $asmrun_i + 1
              end
            end

            """
    }

    /// gdb's commands that pass every signal but `signal` to the program without stopping: a
    /// program may handle a SIGUSR1 or a SIGALRM on its way to the crash the report is about.
    /// gdb keeps SIGTRAP (5) and SIGINT for itself and stops at SIGTRAP whatever `all` says.
    static func stoppingOnlyAt(_ signal: Int32) -> [String] {
        ["handle all nostop noprint pass"] + (signal == 5 ? [] : ["handle \(Signal.name(of: signal)) stop print"])
    }

    /// gdb's settings for a quiet, parseable session.
    static let settings: [String] = [
        "set pagination off", "set confirm off", "set width 0", "set height 0", "set disassembly-flavor intel",
    ]

    private var sections: [String: [String]] = [:]
    private var preamble: [String] = []

    init(_ text: String) {
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("@@") {
                current = String(line.dropFirst(2))
                sections[current!] = []
            } else if let current {
                sections[current, default: []].append(line)
            } else {
                preamble.append(line)
            }
        }
    }

    /// The report, or `nil` when the program did not stop on a signal under the debugger.
    func report(thirtyTwoBit: Bool) -> CrashReport? {
        guard let stop = preamble.last(where: { $0.hasPrefix("Program received signal ") }),
            let name = stop.dropFirst("Program received signal ".count).split(separator: ",").first,
            let signal = Signal.number(named: String(name))
        else { return nil }
        var report = CrashReport(signal: signal)
        report.thirtyTwoBit = thirtyTwoBit
        readSignal(into: &report)
        report.registers = registers(thirtyTwoBit: thirtyTwoBit)
        if let line = sections["instruction"]?.first(where: { $0.hasPrefix("=> ") }), let colon = line.firstRange(of: ":\t"),
            !line.contains("Cannot access memory")
        {
            let words = line[colon.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
            report.instruction = words.isEmpty ? nil : words.joined(separator: " ")
        }
        report.instructionAddress = report.register(thirtyTwoBit ? "eip" : "rip")
        report.location = sections["line"].flatMap(Self.lineLocation)
        // Frames gdb could not name or place (code past the end, libc without symbols) say nothing.
        report.frames = (sections["frames"] ?? []).compactMap(Self.frame).filter { $0.function != "??" || $0.location != nil }
        return report
    }

    /// The section the faulting address lies in (`.text`, `.data`), when a symbol covers it.
    var section: String? { sections["symbol"].flatMap(Self.sectionName) }

    /// The innermost call from the program's own code found on the stack: its line and the
    /// function it called (`printf@plt` → `printf`) and the stack pointer before the call.
    var caller: (location: FileLocation, function: String?, stackPointer: UInt64?)? {
        guard let lines = sections["caller"], let location = Self.lineLocation(lines) else { return nil }
        let call = lines.first { $0.contains(":\tcall ") }
        let target = call.flatMap { $0.lastIndex(of: "<") }.map { index in
            call![call!.index(after: index)...].prefix { $0 != ">" && $0 != "@" && $0 != "+" }
        }
        let stack = lines.first { $0.hasPrefix("$") }.flatMap { $0.split(separator: " ").last }.flatMap(Self.hex)
        return (location, target.map(String.init), stack)
    }

    /// Whether the debugger could read the signal's details (qemu's gdbstub cannot).
    var hasSignalInfo: Bool { (sections["signal"] ?? []).filter { $0.hasPrefix("$") }.count == 2 }

    /// The address of the program's file name (`AT_EXECFN`), which the kernel and qemu-user put at
    /// the top of the stack: where the stack ends.
    var stackTop: UInt64? {
        // `31   AT_EXECFN            File name of executable        0x7fffffffefeb "/tmp/x"`
        let line = sections["auxv"]?.first { $0.split(separator: " ").prefix(2) == ["31", "AT_EXECFN"] }
        return line?.split(separator: " ").lazy.compactMap(Self.hex).first
    }

    /// The line of the byte before the instruction pointer: an `int3`'s, once it trapped.
    var previous: FileLocation? { Self.lineLocation(sections["previous"] ?? []) }

    /// Where the program came from when the instruction pointer lies just past the end of a
    /// section of code (within a page): that section's last line and symbol.
    func pastEnd(of pc: UInt64) -> (section: String, location: FileLocation?, symbol: String?)? {
        let ends = sections.keys.compactMap { key -> (String, UInt64)? in
            let words = key.split(separator: " ")
            guard words.count == 3, words[0] == "end", let end = UInt64(words[2]), pc >= end, pc - end < 4096 else { return nil }
            return (key, end)
        }
        guard let (key, _) = ends.max(by: { $0.1 < $1.1 }), let lines = sections[key] else { return nil }
        let symbol = lines.first { $0.contains(" in section ") }.map { String($0.prefix { $0 != " " }) }
        return (String(key.split(separator: " ")[1]), Self.lineLocation(lines), symbol)
    }

    private func readSignal(into report: inout CrashReport) {
        let values = (sections["signal"] ?? []).filter { $0.hasPrefix("$") }
        guard values.count == 2 else { return }
        let code = Int(values[0].split(separator: "=").last?.trimmingBlanks() ?? "")
        // For SIGFPE and SIGILL the address is the instruction's own, already shown.
        guard report.signal == 11 || report.signal == 7 else { return }
        if report.signal == 11 { report.mapping = code == 1 ? "not mapped" : code == 2 ? "protected" : nil }
        // SI_KERNEL (a general protection fault, such as a misaligned SSE move): no address.
        // `$2 = (void *) 0x402000 <table>`
        if code != 128, let text = values[1].split(separator: ")").last?.split(separator: " ").first, let address = Self.hex(text) {
            report.address = address
        }
    }

    /// The general registers, the instruction pointer, the stack pointer and the flags.
    private func registers(thirtyTwoBit: Bool) -> [CrashReport.Register] {
        let wanted =
            thirtyTwoBit
            ? ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "eip", "eflags"]
            : [
                "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
                "eflags",
            ]
        var values: [String: UInt64] = [:]
        for line in sections["registers"] ?? [] {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let value = Self.hex(fields[1]) { values[String(fields[0])] = value }
        }
        return wanted.compactMap { name in
            values[name].map { CrashReport.Register(name: name == "eflags" && !thirtyTwoBit ? "rflags" : name, value: $0) }
        }
    }

    /// `Line 4 of "x.asm" starts at address …` → x.asm:4.
    private static func lineLocation(_ lines: [String]) -> FileLocation? {
        guard let line = lines.first(where: { $0.hasPrefix("Line ") }) else { return nil }
        let words = line.split(separator: " ")
        guard words.count >= 4, let number = Int(words[1]), let open = line.firstIndex(of: "\"") else { return nil }
        let file = line[line.index(after: open)...].prefix { $0 != "\"" }
        return FileLocation(String(file), line: number)
    }

    /// `#1  0x… in main () at main.asm:12` → main, main.asm:12.
    private static func frame(_ line: String) -> CrashReport.Frame? {
        guard line.hasPrefix("#") else { return nil }
        var words = line.split(separator: " ").dropFirst()
        if words.first?.hasPrefix("0x") == true, words.dropFirst().first == "in" { words = words.dropFirst(2) }
        guard let function = words.first else { return nil }
        var location: FileLocation?
        if let at = words.firstIndex(of: "at"), at + 1 < words.endIndex {
            let place = words[at + 1].split(separator: ":")
            if place.count == 2, let number = Int(place[1]) { location = FileLocation(String(place[0]), line: number) }
        }
        return CrashReport.Frame(function: String(function), location: location)
    }

    private static func sectionName(_ lines: [String]) -> String? {
        guard let line = lines.first(where: { $0.contains(" in section ") }), let range = line.firstRange(of: " in section ") else {
            return nil
        }
        return String(line[range.upperBound...].prefix { $0 != " " })
    }

    /// A path as one argument of a gdb command (`symbol-file`): blanks, quotes and backslashes escaped.
    static func quoted(_ path: String) -> String {
        var text = ""
        for character in path {
            if character == " " || character == "\t" || character == "\n" || character == "'" || character == "\"" || character == "\\" {
                text.append("\\")
            }
            text.append(character)
        }
        return text
    }

    static func hex(_ text: Substring) -> UInt64? {
        guard text.hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }
}
