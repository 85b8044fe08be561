; conformance: int 0x80: registers after a 32-bit system call (elf32)
; asmrun: format elf32
; In a 32-bit program `int 0x80` returns its result in eax and keeps ebx, ecx, edx, esi, edi
; and ebp, the argument registers included; an unknown number returns -ENOSYS (-38).
%include "probe32.inc"
global _start
_start:
        mov     ebx, 0x1b
        mov     ecx, 0x1c
        mov     edx, 0x1d
        mov     esi, 0x51
        mov     edi, 0xd1
        mov     ebp, 0xb9
        mov     eax, 20                 ; getpid
        int     0x80
        xor     eax, eax
        cmp     ebx, 0x1b
        jne     .changed
        cmp     ecx, 0x1c
        jne     .changed
        cmp     edx, 0x1d
        jne     .changed
        cmp     esi, 0x51
        jne     .changed
        cmp     edi, 0xd1
        jne     .changed
        cmp     ebp, 0xb9
.changed:
        show_if "ebx ecx edx esi edi ebp kept", e
        mov     eax, 1000
        int     0x80
        show_dec "int 0x80 with eax 1000", eax
        exit_with 0
