; main(argc, argv) prints each argument with printf and returns argc as the exit status.
extern printf

section .data
fmt:    db "argument %d: %s", 10, 0

section .text
global main
main:
        push    rbx                     ; three pushes + the return address: 16-byte aligned
        push    r12
        push    r13
        mov     r12d, edi               ; argc
        mov     r13, rsi                ; argv
        xor     ebx, ebx
.next:  cmp     ebx, r12d
        jge     .done
        lea     rdi, [rel fmt]
        mov     esi, ebx
        mov     rdx, [r13 + rbx * 8]
        xor     eax, eax
        call    printf
        inc     ebx
        jmp     .next
.done:  mov     eax, r12d
        pop     r13
        pop     r12
        pop     rbx
        ret
