; wc: counts the lines, words and bytes of standard input and prints "lines words bytes".
%include "lib/io.asm"

section .bss
buf:    resb 4096

section .text
global _start
_start:
        xor     r12, r12                ; lines
        xor     r13, r13                ; words
        xor     r14, r14                ; bytes
        xor     r15, r15                ; inside a word?
.read:  xor     eax, eax
        xor     edi, edi
        lea     rsi, [rel buf]
        mov     edx, 4096
        syscall
        test    rax, rax
        jle     .report
        add     r14, rax
        lea     rsi, [rel buf]
        lea     rbx, [rsi + rax]
.scan:  cmp     rsi, rbx
        jae     .read
        movzx   eax, byte [rsi]
        inc     rsi
        cmp     al, 10
        jne     .blank
        inc     r12
.blank: cmp     al, ' '
        je      .space
        cmp     al, 10
        je      .space
        cmp     al, 9
        je      .space
        test    r15, r15
        jnz     .scan
        mov     r15, 1
        inc     r13
        jmp     .scan
.space: xor     r15, r15
        jmp     .scan
.report:
        mov     rax, r12
        call    print_uint
        mov     dil, ' '
        call    print_char
        mov     rax, r13
        call    print_uint
        mov     dil, ' '
        call    print_char
        mov     rax, r14
        call    print_uint
        call    print_newline
        xor     edi, edi
        jmp     exit
