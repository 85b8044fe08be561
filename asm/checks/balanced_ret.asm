; A function that pushes pops as much before `ret`, which then returns to its caller.
section .text
global _start
_start:
        mov     edi, 20
        call    half
        mov     edi, eax                ; exit status 10
        mov     eax, 60
        syscall

; int half(int): uses rbx, saved on the stack
half:
        push    rbx
        mov     ebx, edi
        shr     ebx, 1
        mov     eax, ebx
        pop     rbx                     ; abi: balances the push
        ret
