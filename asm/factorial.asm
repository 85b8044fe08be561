; Recursive factorial of argv[1] (default 10), printed as "N! = X".
%include "lib/io.asm"

section .data
equals: db "! = "

section .text
global _start

; factorial: rax = rdi!, recursively.
factorial:
        cmp     rdi, 1
        jbe     .base
        push    rdi
        dec     rdi
        call    factorial
        pop     rdi
        imul    rax, rdi
        ret
.base:  mov     eax, 1
        ret

; parse_uint: rax = the decimal digits at rsi.
parse_uint:
        xor     eax, eax
.digit: movzx   ecx, byte [rsi]
        sub     ecx, '0'
        cmp     ecx, 9
        ja      .done
        imul    rax, rax, 10
        add     rax, rcx
        inc     rsi
        jmp     .digit
.done:  ret

_start:
        mov     r12, 10
        cmp     qword [rsp], 2          ; argc >= 2?
        jb      .go
        mov     rsi, [rsp + 16]         ; argv[1]
        call    parse_uint
        mov     r12, rax
.go:    mov     rax, r12
        call    print_uint
        lea     rsi, [rel equals]
        mov     edx, 4
        call    print_str
        mov     rdi, r12
        call    factorial
        call    print_uint
        call    print_newline
        xor     edi, edi
        jmp     exit
