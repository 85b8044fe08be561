; conformance: div: SIGFPE's si_code and si_addr, and resuming after it from a handler
; For #DE the kernel sends SIGFPE with si_code FPE_INTDIV (1) and si_addr = the address of the
; faulting div, for a zero divisor and an overflowing quotient alike (idiv of INT64_MIN by -1
; too). The handler prints si_code and whether si_addr is the div, then sets the saved rip to
; the next case and returns through rt_sigreturn.
%include "probe.inc"
global _start
_start:
        on_signal 8, handler            ; SIGFPE
        lea     r14, [rel fault1]
        lea     r15, [rel case2]
        xor     edx, edx
        mov     eax, 1
        xor     ecx, ecx
fault1: div     ecx                     ; by zero
case2:  lea     r14, [rel fault2]
        lea     r15, [rel case3]
        mov     edx, 1
        mov     ecx, 1
fault2: div     ecx                     ; quotient too large
case3:  lea     r14, [rel fault3]
        lea     r15, [rel done]
        mov     rax, 0x8000000000000000
        cqo
        mov     rcx, -1
fault3: idiv    rcx                     ; INT64_MIN / -1
done:   exit_with 0

handler:                                ; r14 = the div, r15 = where to resume
        mov     rbx, rsi                ; siginfo
        mov     rbp, rdx                ; ucontext
        mov     eax, [rbx + 8]
        show_dec "si_code", rax
        cmp     [rbx + 16], r14
        show_if "si_addr is the div", e
        mov     [rbp + UC_RIP], r15
        ret
