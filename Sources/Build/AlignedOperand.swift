/// The x86 instructions whose memory operand must be aligned to its size, or the processor
/// raises a general-protection fault (#GP: SIGSEGV with si_code SI_KERNEL and no address).
///
/// The rule (Intel SDM vol. 1, 10.4.1.1 and 11.6.5; AMD APM vol. 4): a legacy (non-VEX) SSE
/// instruction with a 128-bit memory operand needs it 16-byte aligned, but for `movups`,
/// `movupd`, `movdqu`, `lddqu` and the SSE4.2 string compares. VEX and EVEX forms need no
/// alignment but for the aligned and non-temporal moves (`vmovaps`, `vmovntdq`…), which need
/// their operand's size (16, 32 or 64 bytes). Instructions are read as objdump and gdb print
/// them in Intel syntax: `xorps  xmm0,XMMWORD PTR [rip+0xff5]        # 402004 <mask>`.
package enum AlignedOperand {
    /// Legacy SSE instructions with a 128-bit operand that may lie anywhere. The SHA
    /// instructions are among them here: an AMD EPYC runs them on a misaligned operand (and
    /// qemu 7.2 has none of them), so asmrun says nothing it cannot stand behind.
    static let unaligned: Set<Substring> = [
        "movups", "movupd", "movdqu", "lddqu", "pcmpestri", "pcmpestrm", "pcmpistri", "pcmpistrm", "sha1rnds4", "sha1nexte",
        "sha1msg1", "sha1msg2", "sha256rnds2", "sha256msg1", "sha256msg2",
    ]

    /// VEX and EVEX instructions that keep the rule, at the size of their operand.
    static let alignedVex: Set<Substring> = [
        "vmovaps", "vmovapd", "vmovdqa", "vmovdqa32", "vmovdqa64", "vmovntps", "vmovntpd", "vmovntdq", "vmovntdqa",
    ]

    /// The legacy SSE instructions qemu-user 7.2 runs on a misaligned operand without the
    /// fault, measured one by one against an AMD EPYC (Tests/Conformance/sse_misaligned_xorps.asm
    /// probes `xorps`). qemu faults as the hardware does for the others it was measured on:
    /// `movaps`, `movdqa`, `addps`, `paddd`, `pxor`, `pshufd`, `psrlq`, `cmpps`, `sqrtps`…
    package static let unfaultedByQemu: Set<Substring> = [
        "andps", "andpd", "andnps", "andnpd", "orps", "orpd", "xorps", "xorpd", "unpcklps", "unpcklpd", "unpckhps", "unpckhpd",
        "shufps", "shufpd", "cvtdq2ps", "cvtps2dq", "cvttps2dq", "cvtpd2ps", "cvtpd2dq", "cvttpd2dq", "haddps", "haddpd",
        "hsubps", "hsubpd", "addsubps", "addsubpd", "movshdup", "movsldup", "blendps", "blendpd", "blendvps", "blendvpd",
        "dpps", "dppd", "ptest", "roundps", "roundpd", "phminposuw", "psllw", "pslld", "psllq", "psraw", "psrad", "pclmulqdq",
        "aesenc", "aesenclast", "aesdec", "aesdeclast", "aesimc", "aeskeygenassist",
    ]

    /// The alignment the memory operand of `instruction` must have, in bytes; `nil` when it
    /// needs none (or has no memory operand).
    package static func alignment(of instruction: Substring) -> Int? {
        let code = instruction.prefix { $0 != "#" }
        guard let mnemonic = code.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return nil }
        if mnemonic.hasPrefix("v") {
            guard alignedVex.contains(mnemonic) else { return nil }
            if code.contains("ZMMWORD PTR") { return 64 }
            if code.contains("YMMWORD PTR") { return 32 }
            return code.contains("XMMWORD PTR") ? 16 : nil
        }
        return code.contains("XMMWORD PTR") && !unaligned.contains(mnemonic) ? 16 : nil
    }

    /// The mnemonic of an instruction in Intel syntax.
    package static func mnemonic(of instruction: Substring) -> Substring {
        instruction.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
    }
}
