; conformance: faults: SIGSEGV's si_code and si_addr for reading, writing and executing where that is not allowed
; A page fault gives SIGSEGV with si_addr = the address touched; si_code is SEGV_MAPERR (1)
; where nothing is mapped, SEGV_ACCERR (2) where the page forbids the access (writing .text,
; executing .data). The handler prints one line per access and resumes after it.
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
%macro access 3                         ; access "name", address, instruction
        say     %1
        say     ": "
        mov     r14, %2                 ; the address the fault should name
        lea     r15, [rel %%next]
        %3
%%next:
%endmacro
        access  "read 0x1000", 0x1000, {mov al, [0x1000]}
        access  "write .text", _start, {mov byte [rel _start], 0}
        lea     rbx, [rel data]
        access  "execute .data", rbx, {call rbx}
        exit_with 0

handler:
        mov     rbx, rsi                ; siginfo
        mov     rbp, rdx                ; ucontext
        say_code_addr "si_code 0x"
        cmp     rax, r14
        je      .at
        call    put_hex_0x
        jmp     .trap
.at:    say     "the address"
.trap:  call    put_newline
        mov     [rbp + UC_RIP], r15
        ret

put_hex_0x:
        push    rax
        say     "0x"
        pop     rax
        jmp     put_hex

section .data
data:   db 0xc3                         ; ret, in a page that is not executable
