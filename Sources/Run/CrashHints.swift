import Build
import Processes
import Support

/// Hints for the classic learner crashes, each given only where the evidence says so.
struct CrashHints {
    let report: CrashReport
    /// The section the faulting address lies in, when a symbol covers it.
    let section: String?
    /// The section of code the instruction pointer lies just past, with its last line and symbol.
    let past: (section: String, location: FileLocation?, symbol: String?)?
    /// The program's sources, as paths.
    let sources: [String]
    /// What nasm and the linker printed while building it.
    let warnings: String
    /// Where the stack lies, when it is not executable.
    let nonExecutableStack: Range<UInt64>?
    /// The read-only section (`.rodata`, `.text`) a faulting write went to.
    var readOnlyWritten: String? = nil
    /// The program ran under qemu-user, with this `-cpu` model (`""`: qemu's default).
    var qemuCPU: String? = nil

    var hints: [String] {
        [
            writeReadOnly, cutStackPointer, fellOffTheEnd, executingData, executingStack, notCode, nearNull, misalignedCall,
            misalignedOperand, division, int80, illegal,
            breakpoint, typo,
        ].compactMap { $0 }
    }

    private var instruction: String { report.instruction ?? "" }
    private var stackPointer: String { report.thirtyTwoBit ? "esp" : "rsp" }

    /// A write into a section the loader maps read-only: on Linux a SIGSEGV at the write.
    private var writeReadOnly: String? {
        guard let name = readOnlyWritten, report.signal == 11 else { return nil }
        let at = report.location.map { " at \($0)" } ?? ""
        guard name == ".text" else {
            let kind = name == ".rodata" ? "read-only data" : "a read-only section"
            return "the program writes into \(name.displayEscaped) (\(kind))\(at): copy it to .data or .bss first and change the copy, "
                + "or declare it in `section .data` if it must change"
        }
        return "the program writes into .text (its code, which is read-only)\(at): data the program changes belongs in "
            + "`section .data` (or `section .bss`)"
    }

    /// Past the code: no line for the instruction pointer, just after the end of a section of
    /// code (whatever bytes follow it in the file ran as instructions).
    private var fellOffTheEnd: String? {
        guard report.location == nil || report.ranPastEnd, let past, past.location != nil || past.symbol != nil, int80 == nil else {
            return nil
        }
        let exit = report.thirtyTwoBit ? "mov eax, 1 / int 0x80" : "mov eax, 60 / syscall"
        let last = [past.symbol, past.location.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return "execution ran past the last instruction of \(last): did the program forget the exit system call (\(exit))?"
    }

    /// 32-bit code built as 64-bit: the fault address is the low half of rsp or rbp (`mov eax,
    /// [esp+4]`, or `sub esp, 8` cutting rsp before a `call`). Natively and under qemu the stack
    /// lies above 4 GiB, so the cut address is not mapped. Evidence that the address came from
    /// the stack pointer's low half: the instruction addresses through esp/ebp, or the register
    /// itself was cut.
    private var cutStackPointer: String? {
        guard !report.thirtyTwoBit, report.signal == 11 || report.signal == 7, let address = report.address,
            address <= 0xffff_ffff, report.mapping != "protected"
        else { return nil }
        let cut = ["rsp", "rbp"].contains { name in
            guard let value = report.register(name) else { return false }
            let low = value & 0xffff_ffff
            let throughLowHalf = value == low || instruction.contains("[e\(name.dropFirst())")
            return low >= 0x10_0000 && address &+ 0x10000 >= low && address <= low &+ 0x10000 && throughLowHalf
        }
        guard cut else { return nil }
        return "this looks like 32-bit code built as 64-bit: the address is the low half of rsp/rbp (esp/ebp used as "
            + "in 32-bit code; a 64-bit stack lies above 4 GiB): build it with `-f elf32` (or `; asmrun: format elf32`), "
            + "or use rsp/rbp in 64-bit code"
    }

    private var executingData: String? {
        guard let section, section != ".text", fellOffTheEnd == nil, report.signal == 11 || report.signal == 4 else { return nil }
        return "the program is executing \(section), which holds data: a jump or call to a data label, or code placed after `section .data`"
    }

    /// Code copied to the stack and called, as books do that link with `-z execstack`.
    private var executingStack: String? {
        guard report.signal == 11, report.access == "executing", let address = report.address,
            nonExecutableStack?.contains(address) == true
        else { return nil }
        return "the program executed code on the stack, which is not executable: if it means to, link with `-z execstack` "
            + "(`--link-flags '-z execstack'`, or `; asmrun: link-flags -z execstack` in the source), as its own build may"
    }

    private var notCode: String? {
        guard report.access == "executing", section == nil, fellOffTheEnd == nil, executingStack == nil, let address = report.address
        else { return nil }
        let function = report.calledFunction.map { " in \($0)," } ?? " in the function"
        let called = report.location.map { "\(function) called at \($0)" } ?? ""
        return "0x\(String(address, radix: 16)) is not code: a `ret` returned to whatever was on top of the stack "
            + "(a push without its pop\(called), a `ret` from _start) or a jump through a bad pointer"
    }

    private var nearNull: String? {
        guard report.signal == 11, fellOffTheEnd == nil, !needsAlignment, report.access != "executing", let address = report.address,
            address < 4096
        else { return nil }
        return
            "address 0x\(String(address, radix: 16)) is near zero: a pointer that was never set (a register holding 0, or a missing `lea`)"
    }

    /// An instruction whose memory operand must be aligned (`movaps`, `xorps`, any legacy SSE
    /// instruction with a 16-byte operand but `movups` and its kin; `vmovaps`): a misaligned
    /// operand is a general-protection fault, which the kernel reports with no address.
    private var needsAlignment: Bool { AlignedOperand.alignment(of: Substring(instruction)) != nil }

    /// The program's own such instruction on an address that is not aligned: the label (or the
    /// stack) it reads, and the fix. Natively the instruction may be one qemu-user runs without
    /// the fault: then a pass under emulation was no proof.
    private var misalignedOperand: String? {
        guard report.signal == 11, let alignment = AlignedOperand.alignment(of: Substring(instruction)),
            let address = OperandAddress.of(instruction, in: report), address % UInt64(alignment) != 0, !crashedInLibrary
        else { return nil }
        let mnemonic = AlignedOperand.mnemonic(of: Substring(instruction))
        let name = instruction.split(separator: "<").dropFirst().last.flatMap { $0.hasSuffix(">") ? $0.dropLast() : nil }
        let label = name.map { " (`\($0)`)" } ?? ""
        let move = mnemonic.hasPrefix("v") ? "vmovups" : "movups"
        let stack = ["[\(stackPointer)", report.thirtyTwoBit ? "[ebp" : "[rbp"].contains { instruction.contains($0) }
        let fix =
            stack
            ? "keep \(stackPointer) a multiple of \(alignment) where the slot is made (one push more or less, or `sub \(stackPointer), 8`), or use `\(move)`"
            : "put `align \(alignment)` before \(name.flatMap { $0.contains("+") ? nil : "`\($0)`" } ?? "the data's label"), or use `\(move)` to move it through a register"
        let qemu =
            AlignedOperand.unfaultedByQemu.contains(mnemonic)
            ? " (qemu-user runs `\(mnemonic)` without the fault, so a pass under emulation does not show it)" : ""
        return "`\(mnemonic)` needs its memory operand \(alignment)-byte aligned, and 0x\(String(address, radix: 16))\(label) is not: "
            + "x86 hardware raises SIGSEGV for it\(qemu); \(fix)"
    }

    /// The innermost frame is not in the program's sources (libc, or a library function).
    private var crashedInLibrary: Bool {
        report.frames.first.map { frame in frame.location.map { !sources.contains(where: Self.sameAs($0.path)) } ?? true } ?? false
    }

    private var misalignedCall: String? {
        let caller = report.frames.dropFirst().first { frame in
            frame.location.map { sources.contains(where: Self.sameAs($0.path)) } ?? false
        }
        let inside = crashedInLibrary
        let function = report.calledFunction ?? report.frames.first.map(\.function).flatMap { $0 == "??" ? nil : $0 }
        let call = [function.map { "in \($0)" }, caller?.location.map { "called from \($0)" }].compactMap { $0 }.joined(separator: " ")
        if needsAlignment, cutStackPointer == nil, let before = report.stackPointerAtCall, before % 16 != 0 {
            return "an aligned SSE move\(call.isEmpty ? " in libc" : " " + call) faulted: the stack was not 16-byte aligned at the call "
                + "(\(stackPointer) was 0x\(String(before, radix: 16)); it must be a multiple of 16 before `call`: push one more register, or `sub \(stackPointer), 8`)"
        }
        guard inside, executingStack == nil, let caller = caller?.location else { return nil }
        return "the crash is inside \(function ?? "a library function"), called from \(caller): check the arguments passed to it"
    }

    private var division: String? {
        guard report.signal == 8, instruction.hasPrefix("div") || instruction.hasPrefix("idiv") else { return nil }
        let operand = instruction.split(separator: " ").last.map(String.init) ?? ""
        if let value = report.register(operand.lowercased()) ?? register64(of: operand), value == 0 {
            return "division by zero: \(operand) was 0"
        }
        return "the quotient does not fit: clear the high half before `div` (`xor edx, edx`) or sign-extend before `idiv` (`cdq`/`cqo`)"
    }

    /// `int 0x80` in 64-bit code: natively the 32-bit system calls (pointers cut to 32 bits),
    /// under qemu-x86_64 the 64-bit ones with the 32-bit numbers (1 is write, not exit).
    private var int80: String? {
        let sourceSaysSo = report.sourceLine?.contains("int") == true && warnings.contains("`int 0x80`")
        guard !report.thirtyTwoBit, instruction == "int 0x80" || sourceSaysSo else { return nil }
        let high = ["rbx", "rcx", "rdx", "rsi", "rdi"].filter { (report.register($0) ?? 0) > 0xffff_ffff }
        let pointers = high.isEmpty ? "" : " (\(high.joined(separator: ", ")) hold\(high.count == 1 ? "s" : "") more than 32 bits)"
        return
            "`int 0x80` in 64-bit code: natively it makes the 32-bit system calls, which see only the low half of each register\(pointers); "
            + "under qemu-x86_64 it makes the 64-bit ones, where eax=1 is write, not exit; use `syscall` with the 64-bit numbers (exit is 60), or build it as 32-bit (`bits 32`)"
    }

    /// An instruction the processor lacks. qemu-user's default CPU model is `max`, every
    /// extension it emulates (qemu 7.2: SSE4.2, AVX2, AES, no AVX-512, no SHA), so
    /// `; asmrun: qemu-cpu max` helps only a program that chose a smaller model.
    private var illegal: String? {
        guard report.signal == 4, !instruction.isEmpty else { return nil }
        if instruction.hasPrefix("ud2") { return "`ud2` raises SIGILL on purpose" }
        guard let model = qemuCPU else { return "this CPU does not have `\(instruction)`" }
        if !model.isEmpty && model != "max" {
            return "qemu's CPU model `\(model)` (`; asmrun: qemu-cpu \(model)`) does not have `\(instruction)`: "
                + "`; asmrun: qemu-cpu max` gives it every extension qemu emulates"
        }
        return "qemu-user does not emulate `\(instruction)` with any CPU model (its default is already `max`; qemu emulates no AVX-512 "
            + "and no SHA instructions): run it natively on an x86 machine that has it, or skip it under qemu "
            + "(`; asmrun: skip qemu REASON`)"
    }

    private var breakpoint: String? {
        guard report.signal == 5, instruction.hasPrefix("int3") || report.location != nil else { return nil }
        return "an `int3` (breakpoint) instruction stopped the program: remove it, or run it under `asmrun debug`"
    }

    /// nasm's warning for a line that is a bare word: usually a misspelled instruction.
    private var typo: String? {
        guard let line = warnings.split(separator: "\n").first(where: { $0.contains("label alone on a line without a colon") }) else {
            return nil
        }
        let place = line.firstRange(of: ": warning:").map { String(line[..<$0.lowerBound]) } ?? "a line"
        return
            "nasm warned about \(place), a label alone on a line: a misspelled instruction (such as `sycall`) becomes a label and does nothing"
    }

    /// The 64-bit register a 32-bit name is part of (`ecx` in `rcx`), for its low half.
    private func register64(of name: String) -> UInt64? {
        guard name.hasPrefix("e"), let value = report.register("r" + name.dropFirst()) else { return nil }
        return value & 0xffff_ffff
    }

    /// Whether a source path and the path gdb names are the same file.
    static func same(_ source: String, _ named: String) -> Bool {
        source == named || source.hasSuffix("/" + named) || named.hasSuffix("/" + source)
    }

    static func sameAs(_ named: String) -> (String) -> Bool { { same($0, named) } }
}
