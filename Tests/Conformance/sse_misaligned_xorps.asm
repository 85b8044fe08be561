; conformance: faults: xorps on a .data label that is not 16-byte aligned
; divergence: warned: qemu-user checks the alignment of only some legacy SSE instructions (movaps, addps, paddd, pxor) and runs xorps, andps, orps, shufps, unpcklps, cvtdq2ps, haddps, ptest, pslld, aesenc… on a misaligned operand (7.2); asmrun warns at build time for each such instruction whose operand is a fixed address (AlignmentCheck), and the native crash report names the label
; A sign mask after a 4-byte value, used as `xorps xmm0, [rel mask]`: every legacy SSE
; instruction with a 16-byte memory operand needs it 16-byte aligned (but movups, movupd,
; movdqu, lddqu and the SSE4.2 string compares): #GP, SIGSEGV with si_code SI_KERNEL (0x80).
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
        movss   xmm0, [rel value]
        xorps   xmm0, [rel mask]
        say     {"xorps on mask (4 past a multiple of 16): no fault", 10}
        exit_with 0

handler:
        show_code_addr "xorps on mask (4 past a multiple of 16): SIGSEGV, si_code"
        exit_with 0

section .data
align 16
value:  dd 2.5
mask:   dd 0x80000000, 0x80000000, 0x80000000, 0x80000000
