; The 32-bit version of div_zero.asm.
bits 32
section .text
global _start
_start:
        mov     eax, 7
        xor     edx, edx
        xor     ecx, ecx                ; the divisor, zero
        div     ecx                     ; crash: division by zero
        mov     eax, 1
        xor     ebx, ebx
        int     0x80
