; conformance: traps: signal, si_code, si_addr and the saved rip for int3, ud2, hlt, cli and in
; int3: SIGTRAP, si_code SI_KERNEL (0x80), saved rip after the int3. ud2: SIGILL, ILL_ILLOPN
; (2), si_addr and rip at the ud2. hlt, cli and `in` are privileged: #GP, SIGSEGV with
; SI_KERNEL and si_addr 0, rip at the instruction. The handler prints each and resumes at the
; next case (r15), printing one line per instruction.
%include "probe.inc"
global _start
_start:
        on_signal 5, handler            ; SIGTRAP
        on_signal 4, handler            ; SIGILL
        on_signal 11, handler           ; SIGSEGV
%macro trap 1                           ; "name: " now, the rest from the handler
        say     %str(%1)
        say     ": "
        lea     r14, [rel %%at]
        lea     r15, [rel %%next]
%%at:   %1
%%next:
%endmacro
        trap    int3
        trap    ud2
        trap    hlt
        trap    cli
        trap    {in al, 0x80}
        exit_with 0

handler:                                ; edi = signal, r14 = the instruction
        mov     r12, rdi
        mov     rbx, rsi                ; siginfo
        mov     rbp, rdx                ; ucontext
        say     "signal "
        mov     rax, r12
        call    put_dec
        say_code_addr ", si_code 0x"
        test    rax, rax
        jz      .zero
        cmp     rax, r14
        je      .at
        say     "elsewhere"
        jmp     .rip
.zero:  say     "0"
        jmp     .rip
.at:    say     "at it"
.rip:   say     ", rip +"
        mov     rax, [rbp + UC_RIP]
        sub     rax, r14
        call    put_dec
        call    put_newline
        mov     [rbp + UC_RIP], r15
        ret
