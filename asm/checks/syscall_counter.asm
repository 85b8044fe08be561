; Writes three lines, its counter kept in r12: `syscall` overwrites rcx and r11 on x86 hardware
; (qemu-user leaves them), so a counter in rcx would differ between the two.
section .data
line:   db "tick", 10

section .text
global _start
_start:
        mov     r12d, 3
.again: mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel line]
        mov     edx, 5
        syscall
        dec     r12d
        jnz     .again
        mov     eax, 60
        xor     edi, edi
        syscall
