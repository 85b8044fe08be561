; Counts down from 10 and lifts off.
%include "lib/io.asm"

section .data
liftoff: db "liftoff!", 10

section .text
global _start
_start:
        mov     r12, 10
.loop:  mov     rax, r12
        call    print_uint
        call    print_newline
        dec     r12
        jnz     .loop
        lea     rsi, [rel liftoff]
        mov     edx, 9
        call    print_str
        xor     edi, edi
        jmp     exit
