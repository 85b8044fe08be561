; Prints argc, then each argv entry on its own line. argv[0] is always "./args" under asmrun
; test, natively and under qemu, so the output does not depend on where the repo lives.
%include "lib/io.asm"

section .data
label:  db "argc: "
labellen equ $ - label

section .text
global _start
_start:
        mov     rbx, rsp                ; [rsp] = argc, [rsp + 8] = argv[0], ...
        mov     r12, [rbx]
        lea     rsi, [rel label]
        mov     edx, labellen
        call    print_str
        mov     rax, r12
        call    print_uint
        call    print_newline
        xor     r13, r13
.next:  cmp     r13, r12
        jae     .done
        mov     rsi, [rbx + 8 + r13 * 8]
        call    print_cstr
        call    print_newline
        inc     r13
        jmp     .next
.done:  xor     edi, edi
        jmp     exit
