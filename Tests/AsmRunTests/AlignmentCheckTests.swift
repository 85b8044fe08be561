import Support
import Testing

@testable import Build
@testable import Run

/// Which instructions need an aligned memory operand, what objdump's disassembly says about a
/// program's fixed operands, and the crash hints of a misaligned operand and of an instruction
/// qemu lacks, from canned text (no process).
struct AlignmentCheckTests {
    @Test func theRuleIsTheManualsLegacySseButTheUnalignedMovesAndTheAlignedVexMoves() {
        let cases: [(String, Int?)] = [
            ("xorps  xmm0,XMMWORD PTR [rip+0xff5]        # 402004 <mask>", 16),
            ("movaps XMMWORD PTR [rsp],xmm0", 16),
            ("pclmulqdq xmm0,XMMWORD PTR [rax],0x0", 16),
            ("movups xmm0,XMMWORD PTR [rip+0xff5]        # 402004 <mask>", nil),
            ("movdqu xmm0,XMMWORD PTR [rax]", nil),
            ("lddqu  xmm0,XMMWORD PTR [rax]", nil),
            ("pcmpistri xmm0,XMMWORD PTR [rax],0x0", nil),
            ("movss  xmm0,DWORD PTR [rip+0xff8]        # 402000 <value>", nil),
            ("cvtps2pd xmm0,QWORD PTR [rax]", nil),
            ("xorps  xmm0,xmm1", nil),
            ("vxorps xmm0,xmm0,XMMWORD PTR [rax]", nil),
            ("vmovaps ymm0,YMMWORD PTR [rip+0xff8]        # 402000 <d>", 32),
            ("vmovdqa64 zmm0,ZMMWORD PTR [rax]", 64),
            ("cmpxchg16b OWORD PTR [rax]", nil),
        ]
        for (instruction, alignment) in cases {
            #expect(AlignedOperand.alignment(of: instruction[...]) == alignment, "\(instruction)")
        }
    }

    /// objdump -w -t -d -l -M intel of a debug build: symbols, lines, rip-relative, absolute
    /// and register operands.
    static let disassembly = """
        SYMBOL TABLE:
        0000000000000000 l    df *ABS*\t0000000000000000 negate.asm
        0000000000402000 l    d  .data\t0000000000000000 .data
        0000000000402000 l       .data\t0000000000000000 value
        0000000000402004 l       .data\t0000000000000000 mask
        0000000000402020 l       .bss\t0000000000000000 pad
        0000000000402024 l       .bss\t0000000000000000 buf
        0000000000402030 g       .bss\t0000000000000000 _end
        0000000000401000 g       .text\t0000000000000000 _start

        Disassembly of section .text:

        0000000000401000 <_start>:
        _start():
        /tmp/t//negate.asm:8
          401000:\tmovss  xmm0,DWORD PTR [rip+0xff8]        # 402000 <value>
        /tmp/t//negate.asm:9
          401008:\txorps  xmm0,XMMWORD PTR [rip+0xff5]        # 402004 <mask>
        /tmp/t//negate.asm:10
          40100f:\tandps  xmm0,XMMWORD PTR ds:0x402008
        /tmp/t//negate.asm:11
          401017:\tmovaps XMMWORD PTR [rip+0x1003],xmm0        # 402024 <buf>
        /tmp/t//negate.asm:12
          40101e:\txorps  xmm0,XMMWORD PTR [rbx]
        /tmp/t//negate.asm:13
          401021:\tmovaps xmm1,XMMWORD PTR [rip+0xff5]        # 402010 <mask+0xc>
        /usr/include/x.h:3
          401028:\torps   xmm0,XMMWORD PTR [rip+0xfd6]        # 402004 <mask>
        """

    @Test func fixedOperandsThatAreNotAlignedAreFoundWithTheirLabelAndLine() {
        let findings = AlignmentFindings(objdump: Self.disassembly, sources: ["labs/negate.asm"]).findings
        #expect(findings.map(\.mnemonic) == ["xorps", "andps", "movaps", "orps"])
        #expect(findings.map(\.target) == [0x402004, 0x402008, 0x402024, 0x402004])
        #expect(findings.map(\.label) == ["mask", "mask", "buf", "mask"])
        #expect(findings.map(\.offset) == [0, 4, 0, 0])
        #expect(findings.map(\.store) == [false, false, true, false])
        #expect(findings.map { $0.location?.description } == ["labs/negate.asm:9", "labs/negate.asm:10", "labs/negate.asm:11", nil])
        let output = AlignmentCheck.buildOutput(findings, files: ["labs/negate.asm"])
        let lines = output.split(separator: "\n")
        #expect(lines.count == 3, "the line outside the program's sources is not named: \(output)")
        let first =
            "labs/negate.asm:9: warning: `xorps` reads `mask` (0x402004), which is not 16-byte aligned: x86 hardware raises "
            + "SIGSEGV here (`xorps` needs its memory operand aligned) and qemu-user does not, so this passes under emulation "
            + "and fails natively: put `align 16` before `mask`, or load it into a register with `movups` first"
        #expect(lines.first.map(String.init) == first)
        #expect(
            lines[1].hasSuffix(
                "load it into a register with `movups` first (at 4 bytes past `mask`, it stays misaligned however `mask` is aligned)"))
        #expect(
            lines[2].contains("`movaps` writes `buf` (0x402024)") && lines[2].contains("as qemu-user does, so this fails under emulation"))
        #expect(lines[2].hasSuffix("put `alignb 16` before `buf`, or write it with `movups` instead"))
        #expect(EmulationWarning.all(in: output).count == 3, "each is an emulation warning, which --no-checks removes")
        #expect(
            AlignmentCheck.own(
                in: "x.asm:1: warning: other [-w+x]\n" + output
                    + "y.asm:2: warning: rcx is read here … under emulation and fails natively\n") == output)
    }

    @Test func gdbsCommentAndObjdumpsBothGiveTheAddress() {
        #expect(AlignmentFindings.fixedAddress("xorps xmm0,XMMWORD PTR [rip+0xff5]        # 0x402004 <mask>") == 0x402004)
        #expect(AlignmentFindings.fixedAddress("xorps  xmm0,XMMWORD PTR [rip+0xff5]        # 402004 <mask>") == 0x402004)
        #expect(AlignmentFindings.fixedAddress("andps  xmm0,XMMWORD PTR ds:0x804a004") == 0x804a004)
        #expect(AlignmentFindings.fixedAddress("andps  xmm0,XMMWORD PTR [ebx+0x804a004]") == nil)
    }

    private func hints(_ instruction: String, signal: Int32 = 11, registers: [String: UInt64] = [:], qemuCPU: String? = nil) -> [String] {
        var report = CrashReport(signal: signal)
        report.instruction = instruction
        report.registers = registers.map { CrashReport.Register(name: $0.key, value: $0.value) }
        return CrashHints(
            report: report, section: nil, past: nil, sources: [], warnings: "", nonExecutableStack: nil, qemuCPU: qemuCPU
        ).hints
    }

    @Test func aMisalignedOperandIsNamedAtAnyAddressForEveryAlignedInstruction() {
        let xorps = hints("xorps  xmm0,XMMWORD PTR [rip+0xff5]        # 0x402004 <mask>")
        #expect(
            xorps == [
                "`xorps` needs its memory operand 16-byte aligned, and 0x402004 (`mask`) is not: x86 hardware raises SIGSEGV for it "
                    + "(qemu-user runs `xorps` without the fault, so a pass under emulation does not show it); put `align 16` before "
                    + "`mask`, or use `movups` to move it through a register"
            ])
        let stack = hints("movdqa XMMWORD PTR [rsp+0x8],xmm0", registers: ["rsp": 0x7fff_e000])
        #expect(stack.count == 1 && stack[0].hasPrefix("`movdqa` needs its memory operand 16-byte aligned, and 0x7fffe008 is not"))
        #expect(stack.first?.contains("keep rsp a multiple of 16") == true, "\(stack)")
        #expect(hints("xorps  xmm0,XMMWORD PTR [rip+0xff5]        # 0x402010 <mask>").isEmpty, "an aligned operand faulted otherwise")
        #expect(hints("movups xmm0,XMMWORD PTR [rip+0xff5]        # 0x402004 <mask>").isEmpty)
    }

    @Test func anInstructionQemuLacksIsNotCuredByQemuCpuMaxUnlessASmallerModelWasChosen() {
        let native = hints("vpxord zmm0,zmm0,zmm0", signal: 4)
        #expect(native == ["this CPU does not have `vpxord zmm0,zmm0,zmm0`"])
        let qemu = hints("vpxord zmm0,zmm0,zmm0", signal: 4, qemuCPU: "")
        #expect(qemu.count == 1 && qemu[0].contains("qemu emulates no AVX-512") && !qemu[0].contains("try `; asmrun: qemu-cpu max`"))
        #expect(hints("vpxord zmm0,zmm0,zmm0", signal: 4, qemuCPU: "max") == qemu)
        let model = hints("vpaddd ymm0,ymm0,ymm0", signal: 4, qemuCPU: "qemu64")
        #expect(model.count == 1 && model[0].hasSuffix("`; asmrun: qemu-cpu max` gives it every extension qemu emulates"), "\(model)")
    }
}
