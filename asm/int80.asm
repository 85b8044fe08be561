; 32-bit code as many tutorials write it: `int 0x80` and 32-bit registers, but no `bits 32`.
; asmrun sees no 64-bit register and no `syscall`, so it builds it as elf32 (with a note); as
; elf64 it would run on an x86_64 kernel but crash under qemu-x86_64.
section .data
msg:    db "32-bit without bits 32", 10
len:    equ $ - msg

section .text
global _start
_start:
        mov     eax, 4                  ; write(1, msg, len)
        mov     ebx, 1
        mov     ecx, msg
        mov     edx, len
        int     0x80
        mov     eax, 1                  ; exit(0)
        xor     ebx, ebx
        int     0x80
