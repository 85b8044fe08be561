; asmrun: format elf32
; Adds 1..10 through the stack with push/pop of 32-bit registers (not encodable in 64-bit
; mode) and exits with the sum, 55. The directive above selects elf32 without `bits 32`.
section .text
global _start
_start:
        xor     eax, eax
        mov     ecx, 10
.loop:  push    ecx
        add     eax, [esp]
        pop     ecx
        loop    .loop
        mov     ebx, eax                ; exit(sum)
        mov     eax, 1
        int     0x80
