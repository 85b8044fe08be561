/// What the syscall check knows of each word that starts a line's content: how a mnemonic's
/// operands are used and where control goes, and which words are prefixes, data or directives.
/// A mnemonic it does not know is read as `write` (the first operand written, the others read),
/// which errs towards silence: it never makes a read out of a write.
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

    /// What a mnemonic does beyond its kind.
    struct Traits: OptionSet {
        let rawValue: UInt8
        /// `mov`: an immediate source is the constant rax gets.
        static let move = Traits(rawValue: 1)
        /// `xor`, `sub`, `sbb`: with the same register twice, the old value does not matter.
        static let zeroesItself = Traits(rawValue: 2)
        /// `and`: with 0, the old value does not matter.
        static let zeroesWithZero = Traits(rawValue: 4)
        /// Changes rax without naming it (`mul`, `cpuid`, `lodsb`).
        static let writesRAX = Traits(rawValue: 8)
        static let pushes = Traits(rawValue: 16)
        static let pops = Traits(rawValue: 32)
        /// Moves rsp some other way (`leave`, `enter`).
        static let movesStack = Traits(rawValue: 64)
    }

    /// A word that starts a line's content.
    enum Word: Equatable {
        case instruction(Kind, Traits)
        /// `lock`, `rep`…; the `rep` family makes a string instruction read rcx.
        case prefix(repeats: Bool)
        /// Data definitions and reservations: not code.
        case data
        /// Assembler directives that are not code.
        case directive
        case section, absolute, structure, equ, times
    }

    /// What `word` is, or `nil` for a word the check does not know (a label, a macro, an
    /// instruction it has no entry for).
    static func word(_ key: WordKey) -> Word? { words[key] }

    private static let words: WordTable<Word> = {
        var words = WordTable<Word>(capacity: 800)
        func add(_ names: StaticString, _ word: Word) {
            for key in WordKey.keys(names) { words[key] = word }
        }
        for (kind, traits, names) in instructions { add(names, .instruction(kind, traits)) }
        for condition in UnsafeBufferPointer(start: conditions.utf8Start, count: conditions.utf8CodeUnitCount).split(
            separator: AsmLex.space)
        {
            for (prefix, kind) in [("j", InstructionTable.Kind.branch), ("cmov", .modify), ("set", .write)] {
                words[WordKey(Array(prefix.utf8) + condition)!] = .instruction(kind, [])
            }
        }
        add("lock bnd notrack xacquire xrelease o16 o32 o64 a16 a32 a64", .prefix(repeats: false))
        add("rep repe repz repne repnz", .prefix(repeats: true))
        add("db dw dd dq dt do dy dz resb resw resd resq rest reso resy resz incbin istruc iend at", .data)
        add(
            """
            global extern common static bits use16 use32 use64 default align alignb cpu org float warning
            sectalign required import export group library module uppercase list endstruc
            """, .directive)
        add("section segment", .section)
        add("absolute", .absolute)
        add("struc", .structure)
        add("equ", .equ)
        add("times", .times)
        return words
    }()

    /// Condition code suffixes of `jcc`, `setcc`, `cmovcc`.
    private static let conditions: StaticString = "a ae b be c e g ge l le na nae nb nbe nc ne ng nge nl nle no np ns nz o p pe po s z"

    private static let instructions: [(Kind, Traits, StaticString)] = [
        (.write, [.move], "mov movabs"),
        (
            .write, [],
            """
            movzx movsx movsxd lea popcnt lzcnt tzcnt bsf bsr movbe rdrand rdseed rdpid bextr bzhi pdep pext
            andn sarx shlx shrx rorx blsi blsr blsmsk mulx movd movq vmovd vmovq cvtsd2si cvttsd2si cvtss2si
            cvttss2si rdfsbase rdgsbase pextrb pextrw pextrd pextrq movmskps movmskpd pmovmskb
            """
        ),
        (.write, [.writesRAX], "in"),
        (.modify, [.zeroesItself], "xor sub sbb"), (.modify, [.zeroesWithZero], "and"),
        (
            .modify, [],
            "add adc or inc dec neg not shl shr sal sar rol ror rcl rcr shld shrd bswap btc btr bts crc32 adcx adox"
        ),
        (.modify, [.writesRAX], "cmpxchg"), (.exchange, [], "xchg xadd"),
        (.read, [], "cmp test bt out wrfsbase wrgsbase ptwrite verr verw"), (.read, [.writesRAX], "mul div idiv"),
        (.read, [.pushes], "push"), (.none, [.pushes], "pushf pushfq"), (.pop, [.pops], "pop"), (.none, [.pops], "popf popfq"),
        (.none, [.movesStack], "leave enter"),
        (
            .none, [],
            """
            nop fnop prefetch prefetchw prefetcht0 prefetcht1 prefetcht2 prefetchnta clflush clflushopt clwb
            cldemote endbr64 endbr32 lfence sfence mfence pause cqo cdq cwd clc stc cmc cld std cli sti sahf
            wait fwait emms vzeroupper vzeroall xend xtest finit fninit
            """
        ),
        (.none, [.writesRAX], "cdqe cwde cbw lahf xlat xlatb rdtsc"),
        (.imul, [.writesRAX], "imul"), (.jump, [], "jmp"), (.call, [], "call"), (.ret, [], "ret retn retq retf"),
        (.halt, [], "hlt ud2 ud0 ud1 int3 int1 icebp iret iretd iretq sysret sysretq sysexit"),
        (.loop, [], "loop loope loopz loopne loopnz"), (.syscall, [.writesRAX], "syscall"), (.cpuid, [.writesRAX], "cpuid"),
        (.writesRCX, [.writesRAX], "rdtscp"),
        (.readsRCX(0x0f), [], "xsetbv monitor mwait monitorx mwaitx wrpkru wrmsr"),
        (.readsRCX(0x0f), [.writesRAX], "xgetbv rdpmc rdmsr rdpkru cmpxchg8b"), (.readsRCX(0xff), [.writesRAX], "cmpxchg16b"),
        (.branchOnCount(0xff), [], "jrcxz"), (.branchOnCount(0x0f), [], "jecxz"), (.branchOnCount(0x03), [], "jcxz"),
        (.interrupt, [.writesRAX], "int"),
        (
            .string, [],
            """
            movs movsb movsw movsd movsq stos stosb stosw stosd stosq scas scasb scasw scasd scasq cmps cmpsb
            cmpsw cmpsd cmpsq ins insb insw insd outs outsb outsw outsd
            """
        ),
        (.string, [.writesRAX], "lods lodsb lodsw lodsd lodsq"),
    ]

    /// cpuid leaves that do not read ecx: after `mov eax, LEAF` with one of these, cpuid only writes it.
    static func leafIgnoresECX(_ leaf: Int64) -> Bool {
        [0, 1, 2, 3, 5, 6, 8, 9, 0xa, 0xc, 0xe, 0x15, 0x16, 0x19, 0x1c, 0x21].contains(leaf) || (0x8000_0000...0x8000_001c).contains(leaf)
    }
}
