; conformance: executable stack: a 32-bit program without a .note.GNU-stack section runs code from its stack (elf32)
; asmrun: format elf32
; Without PT_GNU_STACK (nasm writes no .note.GNU-stack, so ld writes none) Linux runs a 32-bit
; program with READ_IMPLIES_EXEC: its stack is executable, and code stored there runs.
%include "probe32.inc"
global _start
_start:
        sub     esp, 16
        mov     dword [esp], 0x00002ab8 ; mov eax, 42
        mov     word [esp + 4], 0xc300  ; (the immediate's last byte) ret
        mov     eax, esp
        call    eax
        show_dec "code on the stack returned", eax
        exit_with 0
