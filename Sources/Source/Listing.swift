/// The two registers `syscall` overwrites on x86 hardware (rcx with the return address, r11 with
/// RFLAGS) and qemu-user leaves as they were.
enum ClobberedRegister: Int, CaseIterable {
    case rcx, r11
}

/// What one instruction does to one of those registers, as masks of its bytes (bit 0: the low
/// byte): the bytes it reads before writing, and the bytes it writes.
struct RegisterUse {
    var read: UInt8 = 0
    var written: UInt8 = 0
    /// How the read is spelled: 0, implicitly by the mnemonic (`loop`, `rep`); else the index of
    /// the operand's name in `RegisterNames.spellings`.
    var spelling: UInt8 = 0
}

/// Where control goes after an instruction.
enum Flow: UInt8 {
    /// The next instruction.
    case next
    /// `target` only (`jmp label`).
    case jump
    /// `target` or the next instruction (`jcc`, `loop`).
    case branch
    /// `target`, and the next instruction once it returns; no target: an external or indirect call.
    case call
    case ret
    /// Nowhere the check can follow: an indirect jump, `hlt`, data, the end of the code.
    case stop
    /// The next instruction, after the kernel (rcx and r11 overwritten on hardware).
    case syscall
}

/// What an instruction does to the stack, beyond calls and returns.
enum StackUse: UInt8 {
    case none
    /// `push REG`: the register's value is saved (not yet used).
    case pushRegister
    /// `push` of anything else (an immediate, memory, flags).
    case push
    case pop
    /// rsp changed some other way (`sub rsp, 8`, `leave`): what was pushed is not followed.
    case other
}

/// One instruction of a program's code as the check sees it: where it is written, where control
/// goes, and what it does to rcx, r11 (and rax, whose constant names a `syscall`'s number).
struct Instruction {
    /// Index into `Listing.files`.
    var file: Int32 = 0
    var line: Int32 = 0
    /// The macro whose expansion this is (index into `Listing.macros`), -1 for none.
    var macro: Int32 = -1
    /// The instruction `jump`, `branch` and `call` go to; -1 when unknown.
    var target: Int32 = -1
    var flow = Flow.next
    var stack = StackUse.none
    /// Index into `Listing.mnemonics`.
    var mnemonic: UInt16 = 0
    var rcx = RegisterUse()
    var r11 = RegisterUse()
    /// The constant it puts in rax (`mov eax, 60`), or `untouched`/`unknown`.
    var rax = Instruction.untouched
    /// A label names it: control may come from elsewhere.
    var labelled = false
    /// A `call` names it: a function starts here.
    var callEntry = false

    static let untouched = Int64.min
    static let unknown = Int64.min + 1

    subscript(register: ClobberedRegister) -> RegisterUse {
        get { register == .rcx ? rcx : r11 }
        set {
            if register == .rcx { rcx = newValue } else { r11 = newValue }
        }
    }
}

/// Every instruction of a program's assembly sources, macros expanded and includes spliced in as
/// nasm does, in the order of the code; each source's end is a `stop`.
struct Listing {
    var instructions: [Instruction] = []
    /// The source and included files instructions name, as their paths.
    var files: [String] = []
    /// The names of the macros instructions came from.
    var macros: [String] = []
    var mnemonics: [String] = [""]
    private var mnemonicIndex = WordTable<UInt16>(capacity: 64)
    private var repeatedIndex = WordTable<UInt16>(capacity: 4)
    /// Labels by source (non-global labels of one source are not another's).
    var labels: [[String: Int32]] = []
    /// Jump and call targets to resolve once every label is known: the instruction, its source,
    /// the label.
    var references: [(instruction: Int32, unit: Int, name: String)] = []
    /// The code holds a line the check could not read (an include it could not find, or more
    /// code than it reads): an unknown word there may be a macro that writes anything.
    var incomplete = false

    /// The instructions the check reads at most, for a program of any size.
    static let capacity = 2_000_000

    /// The index of `mnemonic` (`rep` and it, when `repeated`), added on first use.
    mutating func intern(_ mnemonic: AsmLex.Bytes, repeated: Bool) -> UInt16 {
        guard let key = WordKey(mnemonic) else { return 0 }
        if let known = repeated ? repeatedIndex[key] : mnemonicIndex[key] { return known }
        guard mnemonics.count < Int(UInt16.max) else { return 0 }
        mnemonics.append((repeated ? "rep " : "") + AsmLex.lower(mnemonic))
        let index = UInt16(mnemonics.count - 1)
        if repeated { repeatedIndex[key] = index } else { mnemonicIndex[key] = index }
        return index
    }

    /// Sets each reference's target (a label of its own source first, else another source's)
    /// and marks the instructions calls go to.
    mutating func resolve() {
        var everywhere: [String: Int32] = [:]
        for unit in labels { everywhere.merge(unit) { first, _ in first } }
        for reference in references {
            let found = labels[reference.unit][reference.name] ?? everywhere[reference.name]
            guard let target = found, Int(target) < instructions.count else { continue }
            let index = Int(reference.instruction)
            instructions[index].target = target
            if instructions[index].flow == .call { instructions[Int(target)].callEntry = true }
        }
        references = []
    }
}
