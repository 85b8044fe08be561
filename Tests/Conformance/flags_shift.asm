; conformance: flags: CF, OF, SF, ZF and PF after shifts by 1, by N, by 0 and by a count past 31
; A shift by 1 defines OF (shl: the top bit changed; shr: the operand's top bit; sar: 0); a
; shift by N > 1 leaves OF undefined, and AF is undefined after every shift: CPUs differ there,
; so those are not printed. A count of 0 changes no flag; counts are masked to 5 bits (6 for
; 64-bit operands), so shl by 33 is shl by 1.
%include "probe.inc"
global _start
_start:
        flags_after "shl 0x80000001, 1", CF|PF|ZF|SF|OF, {mov eax, 0x80000001}, {shl eax, 1}
        flags_after "shl 0x40000000, 1", CF|PF|ZF|SF|OF, {mov eax, 0x40000000}, {shl eax, 1}
        flags_after "shr 0x80000000, 1", CF|PF|ZF|SF|OF, {mov eax, 0x80000000}, {shr eax, 1}
        flags_after "sar 0x80000001, 1", CF|PF|ZF|SF|OF, {mov eax, 0x80000001}, {sar eax, 1}
        flags_after "shl 3, 31", CF|PF|ZF|SF, {mov eax, 3}, {shl eax, 31}
        flags_after "shr 0x100, 9", CF|PF|ZF|SF, {mov eax, 0x100}, {shr eax, 9}
        mov     eax, 1
        xor     ecx, ecx
        add     eax, -1                 ; CF PF AF ZF set
        shl     eax, cl                 ; by 0: no flag changes
        show_flags "shl by 0 after add 1, -1", CF|PF|AF|ZF|SF|OF
        mov     eax, 0x80000001
        mov     cl, 33
        shl     eax, cl
        show_result "shl 0x80000001, 33", rax, CF|PF|ZF|SF|OF
        exit_with 0
