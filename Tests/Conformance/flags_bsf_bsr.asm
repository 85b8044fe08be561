; conformance: flags: bsf and bsr on zero and non-zero sources
; bsf/bsr set ZF when the source is 0 and then leave a 64-bit destination as it was (AMD
; documents that; Intel calls it undefined but its CPUs, and Linux's ffs/fls, rely on it);
; otherwise ZF is 0 and the destination is the index of the lowest/highest set bit.
%include "probe.inc"
global _start
_start:
        mov     rbx, 0x1234
        xor     r12d, r12d
        bsf     rbx, r12
        show_result "bsf of 0 into 0x1234", rbx, ZF
        mov     rbx, 0x5678
        bsr     rbx, r12
        show_result "bsr of 0 into 0x5678", rbx, ZF
        mov     r12, 0x8010
        bsf     rbx, r12
        show_result "bsf of 0x8010", rbx, ZF
        bsr     rbx, r12
        show_result "bsr of 0x8010", rbx, ZF
        exit_with 0
