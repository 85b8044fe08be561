; A libc program that needs libm: `sqrt` is in -lm, which the directive adds to the link.
; asmrun: link-flags -lm
extern printf, sqrt
section .data
two:    dq 2.0
fmt:    db "sqrt(2) = %.6f", 10, 0

section .text
global main
main:
        push    rbp                     ; align the stack to 16 bytes for the calls
        movsd   xmm0, [rel two]
        call    sqrt                    ; xmm0 = sqrt(2.0)
        lea     rdi, [rel fmt]
        mov     eax, 1                  ; one vector register used by the varargs call
        call    printf
        xor     eax, eax
        pop     rbp
        ret
