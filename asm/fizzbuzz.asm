; FizzBuzz from 1 to 30.
%include "lib/io.asm"

section .data
fizz:   db "Fizz"
buzz:   db "Buzz"

section .text
global _start
_start:
        mov     r12, 1                  ; n
.loop:  cmp     r12, 30
        ja      .end
        xor     r13, r13                ; printed a word for n?
        mov     rax, r12
        xor     edx, edx
        mov     ecx, 3
        div     rcx
        test    rdx, rdx
        jnz     .not3
        lea     rsi, [rel fizz]
        mov     edx, 4
        call    print_str
        mov     r13, 1
.not3:  mov     rax, r12
        xor     edx, edx
        mov     ecx, 5
        div     rcx
        test    rdx, rdx
        jnz     .not5
        lea     rsi, [rel buzz]
        mov     edx, 4
        call    print_str
        mov     r13, 1
.not5:  test    r13, r13
        jnz     .eol
        mov     rax, r12
        call    print_uint
.eol:   call    print_newline
        inc     r12
        jmp     .loop
.end:   xor     edi, edi
        jmp     exit
