; The 32-bit version of noexit.asm: no `mov eax, 1 / int 0x80` at the end.
bits 32
section .data
msg:    db "bye", 10

section .text
global _start
_start:
        mov     eax, 4                  ; write(1, msg, 4)
        mov     ebx, 1
        mov     ecx, msg
        mov     edx, 4
        int     0x80                    ; crash: the last instruction
