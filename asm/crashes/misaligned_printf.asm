; Calls printf with the stack 8 bytes off: main is entered with rsp = 16n + 8, and nothing
; realigns it (a `push rbp` would). glibc's printf saves SSE registers with `movaps`, which
; faults on a misaligned address.
; asmrun: link cc
extern printf
section .data
fmt:    db "%d %f", 10, 0

section .text
global main
main:
        lea     rdi, [rel fmt]
        mov     esi, 42
        mov     eax, 1                  ; one vector register argument: printf saves them all
        call    printf                  ; crash: inside printf, called from here
        xor     eax, eax
        ret
