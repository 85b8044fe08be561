; conformance: faults: movaps on an address that is not 16-byte aligned
; Aligned SSE moves (movaps, movdqa) raise #GP on a misaligned address: SIGSEGV with si_code
; SI_KERNEL (0x80) and si_addr 0 (the CPU does not report the address). movups is fine.
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
        lea     rbx, [rel block + 8]
        movups  xmm0, [rbx]
        say     {"movups on +8: no fault", 10}
        movaps  xmm0, [rbx]
        say     {"movaps on +8: no fault", 10}
        exit_with 1

handler:
        show_code_addr "movaps on +8: SIGSEGV, si_code"
        exit_with 0

section .data
align 16
block:  times 32 db 0
