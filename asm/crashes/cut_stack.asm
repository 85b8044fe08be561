; 32-bit cdecl code forced to elf64: nasm accepts `mov eax, [esp+4]` as 64-bit code, but esp is
; only the low half of rsp, and a 64-bit program's stack lies above 4 GiB, so the address is not
; mapped. Without the directive asmrun sees esp used as the stack pointer and builds it as elf32,
; where it exits 5.
; asmrun: format elf64
section .text
global main
main:
        push    5
        call    first
        add     esp, 4
        ret
first:
        mov     eax, [esp+4]            ; crash: the low half of rsp is not the stack
        ret
