; Prints the time-stamp counter (rdtsc), which differs on every run: `asmrun test --update`
; runs it again, finds the number differs and records it as a hole (`tsc: [..]`).
%include "lib/io.asm"

section .data
label:  db "tsc: "

section .text
global _start
_start:
        lea     rsi, [rel label]
        mov     edx, 5
        call    print_str
        rdtsc                           ; edx:eax = the counter
        shl     rdx, 32
        or      rax, rdx
        call    print_uint
        call    print_newline
        xor     edi, edi
        jmp     exit
