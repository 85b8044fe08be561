; asmrun: timeout 1
; Ignores SIGTERM, then loops: asmrun must follow up with SIGKILL after the grace period.
%include "sys.inc"
section .data
act:    dq 1, 0, 0, 0               ; sa_handler = SIG_IGN, flags, restorer, mask
section .text
global _start
_start:
        mov     eax, SYS_rt_sigaction
        mov     edi, 15             ; SIGTERM
        lea     rsi, [rel act]
        xor     edx, edx
        mov     r10d, 8
        syscall
.spin:  jmp     .spin
