; Writes through a pointer that was never set: `mov [0], eax` in a register's clothing.
section .text
global _start
_start:
        xor     ebx, ebx                ; the pointer, never loaded
        mov     eax, 42
        mov     [rbx], eax              ; crash: writes to address 0
        mov     eax, 60
        xor     edi, edi
        syscall
