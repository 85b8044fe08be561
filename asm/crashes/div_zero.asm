; Divides by a register that holds zero: SIGFPE.
section .text
global _start
_start:
        mov     eax, 7
        xor     edx, edx
        xor     ecx, ecx                ; the divisor, zero
        div     ecx                     ; crash: division by zero
        mov     eax, 60
        xor     edi, edi
        syscall
