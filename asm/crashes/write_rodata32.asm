; The 32-bit write into .rodata (the correct twin: ../checks/write_data.asm, 64-bit).
bits 32
section .rodata
count: dd 0

section .text
global _start
_start:
        inc     dword [count]           ; crash: .rodata cannot be written
        mov     eax, 1
        xor     ebx, ebx
        int     0x80
