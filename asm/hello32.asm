; 32-bit Linux: write and exit through int 0x80 (eax = 4 is write, 1 is exit).
; `bits 32` tells asmrun to assemble with -f elf32 and link with -m elf_i386.
bits 32

section .data
msg:    db "Hello from 32-bit land!", 10
len:    equ $ - msg

section .text
global _start
_start:
        mov     eax, 4                  ; write(
        mov     ebx, 1                  ;   stdout,
        mov     ecx, msg                ;   msg,
        mov     edx, len                ;   len)
        int     0x80
        mov     eax, 1                  ; exit(
        xor     ebx, ebx                ;   0)
        int     0x80
