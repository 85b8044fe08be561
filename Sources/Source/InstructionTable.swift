/// What the syscall check knows of each mnemonic: how its operands are used and where control
/// goes. A mnemonic it does not know is read as `write` (the first operand written, the others
/// read), which errs towards silence: it never makes a read out of a write.
enum InstructionTable {
    enum Kind: Equatable {
        /// `mov`: the first operand written, the others read.
        case write
        /// `add`: the first operand read and written, the others read.
        case modify
        /// `xchg`, `xadd`: every operand read and written.
        case exchange
        /// `cmp`, `push`, `div`: every operand read.
        case read
        /// `nop`, `prefetch`, `cqo`: no operand is a read of rcx or r11 that matters.
        case none
        case pop, imul, jump, branch, call, ret
        /// Control goes nowhere the check follows (`hlt`, `ud2`, `sysret`).
        case halt
        /// `loop`, `loope`, `loopne`: read rcx (ecx when the second operand says so) and branch.
        case loop
        /// `jrcxz`, `jecxz`: read these bytes of rcx and branch.
        case branchOnCount(UInt8)
        case syscall
        /// Reads ecx (a leaf's subleaf) and writes rcx.
        case cpuid
        /// Writes rcx (`rdtscp`: the processor number).
        case writesRCX
        /// Reads these bytes of rcx (`xgetbv`'s register number; `cmpxchg16b`'s operand).
        case readsRCX(UInt8)
        /// `movsb`, `stosq`…: with a `rep` prefix, rcx is the count.
        case string
        /// `int 0x80` goes on; `int 3` stops.
        case interrupt
    }

    /// The kind of `mnemonic` (lower case); `nil` when it is not one the check knows.
    static func kind(_ mnemonic: String) -> Kind? {
        if let kind = kinds[mnemonic] { return kind }
        if mnemonic.hasPrefix("cmov"), conditions.contains(String(mnemonic.dropFirst(4))) { return .modify }
        if mnemonic.hasPrefix("set"), conditions.contains(String(mnemonic.dropFirst(3))) { return .write }
        if mnemonic.hasPrefix("j"), conditions.contains(String(mnemonic.dropFirst())) { return .branch }
        return nil
    }

    /// Condition code suffixes of `jcc`, `setcc`, `cmovcc`.
    static let conditions: Set<String> = [
        "a", "ae", "b", "be", "c", "e", "g", "ge", "l", "le", "na", "nae", "nb", "nbe", "nc", "ne", "ng", "nge", "nl", "nle", "no",
        "np", "ns", "nz", "o", "p", "pe", "po", "s", "z",
    ]

    /// Prefixes before a mnemonic; the `rep` family makes a string instruction read rcx.
    static let prefixes: Set<String> = [
        "lock", "rep", "repe", "repz", "repne", "repnz", "bnd", "notrack", "xacquire", "xrelease", "o16", "o32", "o64", "a16", "a32",
        "a64",
    ]

    /// Data definitions and reservations: not code.
    static let data: Set<String> = [
        "db", "dw", "dd", "dq", "dt", "do", "dy", "dz", "resb", "resw", "resd", "resq", "rest", "reso", "resy", "resz", "incbin",
        "istruc", "iend", "at",
    ]

    /// Assembler directives that are not code (`section` and `struc` are handled apart).
    static let directives: Set<String> = [
        "global", "extern", "common", "static", "bits", "use16", "use32", "use64", "default", "align", "alignb", "cpu", "org",
        "float", "warning", "sectalign", "required", "import", "export", "group", "library", "module", "uppercase", "list",
    ]

    private static let kinds: [String: Kind] = {
        var kinds: [String: Kind] = [:]
        let groups: [(Kind, [String])] = [
            (
                .write,
                [
                    "mov", "movabs", "movzx", "movsx", "movsxd", "lea", "popcnt", "lzcnt", "tzcnt", "bsf", "bsr", "movbe", "rdrand",
                    "rdseed", "rdpid", "bextr", "bzhi", "pdep", "pext", "andn", "sarx", "shlx", "shrx", "rorx", "blsi", "blsr",
                    "blsmsk", "mulx", "movd", "movq", "vmovd", "vmovq", "cvtsd2si", "cvttsd2si", "cvtss2si", "cvttss2si", "in",
                    "rdfsbase", "rdgsbase", "pextrb", "pextrw", "pextrd", "pextrq", "movmskps", "movmskpd", "pmovmskb",
                ]
            ),
            (
                .modify,
                [
                    "add", "adc", "sub", "sbb", "and", "or", "xor", "inc", "dec", "neg", "not", "shl", "shr", "sal", "sar", "rol", "ror",
                    "rcl", "rcr", "shld", "shrd", "bswap", "btc", "btr", "bts", "crc32", "adcx", "adox", "cmpxchg",
                ]
            ),
            (.exchange, ["xchg", "xadd"]),
            (.read, ["cmp", "test", "push", "bt", "mul", "div", "idiv", "out", "wrfsbase", "wrgsbase", "ptwrite", "verr", "verw"]),
            (
                .none,
                [
                    "nop", "fnop", "prefetch", "prefetchw", "prefetcht0", "prefetcht1", "prefetcht2", "prefetchnta", "clflush",
                    "clflushopt", "clwb", "cldemote", "endbr64", "endbr32", "lfence", "sfence", "mfence", "pause", "leave", "enter",
                    "cqo", "cdq", "cwd", "cdqe", "cwde", "cbw", "clc", "stc", "cmc", "cld", "std", "cli", "sti", "pushf", "pushfq",
                    "popf", "popfq", "lahf", "sahf", "xlat", "xlatb", "wait", "fwait", "emms", "vzeroupper", "vzeroall", "rdtsc",
                    "xend", "xtest", "finit", "fninit",
                ]
            ),
            (.pop, ["pop"]), (.imul, ["imul"]), (.jump, ["jmp"]), (.call, ["call"]), (.ret, ["ret", "retn", "retq", "retf"]),
            (.halt, ["hlt", "ud2", "ud0", "ud1", "int3", "int1", "icebp", "iret", "iretd", "iretq", "sysret", "sysretq", "sysexit"]),
            (.loop, ["loop", "loope", "loopz", "loopne", "loopnz"]), (.syscall, ["syscall"]), (.cpuid, ["cpuid"]),
            (.writesRCX, ["rdtscp"]),
            (
                .readsRCX(0x0f),
                ["xgetbv", "xsetbv", "rdpmc", "rdmsr", "wrmsr", "monitor", "mwait", "monitorx", "mwaitx", "rdpkru", "wrpkru"]
            ),
            (.readsRCX(0xff), ["cmpxchg16b"]), (.readsRCX(0x0f), ["cmpxchg8b"]),
            (.branchOnCount(0xff), ["jrcxz"]), (.branchOnCount(0x0f), ["jecxz"]), (.branchOnCount(0x03), ["jcxz"]),
            (.interrupt, ["int"]),
            (
                .string,
                [
                    "movs", "movsb", "movsw", "movsd", "movsq", "stos", "stosb", "stosw", "stosd", "stosq", "lods", "lodsb", "lodsw",
                    "lodsd", "lodsq", "scas", "scasb", "scasw", "scasd", "scasq", "cmps", "cmpsb", "cmpsw", "cmpsd", "cmpsq", "ins",
                    "insb", "insw", "insd", "outs", "outsb", "outsw", "outsd",
                ]
            ),
        ]
        for (kind, names) in groups { for name in names { kinds[name] = kind } }
        return kinds
    }()

    /// cpuid leaves that do not read ecx: after `mov eax, LEAF` with one of these, cpuid only writes it.
    static func leafIgnoresECX(_ leaf: Int64) -> Bool {
        [0, 1, 2, 3, 5, 6, 8, 9, 0xa, 0xc, 0xe, 0x15, 0x16, 0x19, 0x1c, 0x21].contains(leaf) || (0x8000_0000...0x8000_001c).contains(leaf)
    }

    /// Instructions that change rax without naming it: an earlier `mov eax, N` no longer holds.
    static let writesRAXImplicitly: Set<String> = [
        "mul", "div", "idiv", "cpuid", "rdtsc", "rdtscp", "lodsb", "lodsw", "lodsd", "lodsq", "lods", "cdqe", "cwde", "cbw", "xgetbv",
        "rdpkru", "cmpxchg", "cmpxchg8b", "cmpxchg16b", "lahf", "xlat", "xlatb", "rdmsr", "rdpmc", "in", "int",
    ]
}
