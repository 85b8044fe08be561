; Adds its numeric arguments and exits with the sum (mod 256): an autograder-style program
; whose only output is its status.
section .text
global _start
_start:
        mov     r12, [rsp]              ; argc
        lea     rbx, [rsp + 16]         ; argv[1]
        xor     r13, r13                ; sum
        dec     r12
.next:  test    r12, r12
        jz      .done
        mov     rsi, [rbx]
        xor     eax, eax
.digit: movzx   ecx, byte [rsi]
        sub     ecx, '0'
        cmp     ecx, 9
        ja      .add
        imul    rax, rax, 10
        add     rax, rcx
        inc     rsi
        jmp     .digit
.add:   add     r13, rax
        add     rbx, 8
        dec     r12
        jmp     .next
.done:  mov     eax, 60
        mov     rdi, r13
        syscall
