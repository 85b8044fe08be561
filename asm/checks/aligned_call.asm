; `main` is entered with rsp 8 bytes past a multiple of 16 (the return address): one push
; makes it a multiple of 16 again, as printf requires at the `call`.
extern printf
section .data
fmt:    db "%d squared is %d", 10, 0

section .text
global main
main:
        push    rbp                     ; abi: realigns the stack
        mov     edi, 7
        call    square
        lea     rdi, [rel fmt]
        mov     esi, 7
        mov     edx, eax
        xor     eax, eax
        call    printf
        pop     rbp                     ; abi: undoes it
        xor     eax, eax
        ret

; int square(int): a leaf, called from assembly
square:
        mov     eax, edi
        imul    eax, edi
        ret
