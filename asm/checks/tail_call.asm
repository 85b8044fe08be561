; What the checks must not take for a mistake: `greet` ends with a tail call (`jmp printf`: printf
; returns straight to main), `twice` is a leaf without a prologue, `main` keeps rbx.
extern printf
section .data
fmt:    db "hello, %d", 10, 0

section .text
global main
main:
        push    rbx
        mov     ebx, 21
        mov     edi, ebx
        call    twice
        mov     esi, eax
        call    greet
        xor     eax, eax
        pop     rbx
        ret

greet:
        lea     rdi, [rel fmt]
        xor     eax, eax
        jmp     printf                  ; tail call: the stack is as at greet's entry

twice:
        lea     eax, [rdi + rdi]
        ret
