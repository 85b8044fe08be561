; `div ecx` divides edx:eax, not eax: with edx left at 5 the quotient needs more than 32 bits,
; and the processor raises the same SIGFPE as for a division by zero.
section .text
global _start
_start:
        mov     edx, 5                  ; should have been cleared (xor edx, edx)
        mov     eax, 10
        mov     ecx, 2
        div     ecx                     ; crash: the quotient does not fit
        mov     eax, 60
        xor     edi, edi
        syscall
