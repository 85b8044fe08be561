; The 32-bit version of null_write.asm.
bits 32
section .text
global _start
_start:
        xor     ebx, ebx                ; the pointer, never loaded
        mov     eax, 42
        mov     [ebx], eax              ; crash: writes to address 0
        mov     eax, 1
        xor     ebx, ebx
        int     0x80
