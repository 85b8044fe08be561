; asmrun: xfail all known bug: the loop starts at 0 instead of 1 (an exercise to fix)
; Should print the squares of 1..5; prints those of 0..4. The expectation holds the correct
; output, and the directive marks the known failure, so the suite stays green until it is
; fixed; then asmrun reports the unexpected pass and the directive can go.
%include "lib/io.asm"

section .text
global _start
_start:
        xor     r12, r12                ; BUG: should start at 1
.loop:  mov     rax, r12
        imul    rax, rax
        call    print_uint
        call    print_newline
        inc     r12
        cmp     r12, 5
        jb      .loop                   ; BUG: should include 5
        xor     edi, edi
        jmp     exit
