; A libc program: `main` calls printf, so asmrun links it with `cc -no-pie`.
extern printf

section .data
fmt:    db "%s has %d letters", 10, 0
subject: db "assembly", 0

section .text
global main
main:
        push    rbp                     ; realigns the stack to 16 bytes for the call
        mov     rbp, rsp
        lea     rdi, [rel fmt]
        lea     rsi, [rel subject]
        mov     edx, 8
        xor     eax, eax                ; varargs: no vector registers used
        call    printf
        xor     eax, eax                ; return 0
        pop     rbp
        ret
