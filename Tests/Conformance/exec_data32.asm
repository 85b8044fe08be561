; conformance: executable stack: a 32-bit program without a .note.GNU-stack section runs code from .data (elf32)
; asmrun: format elf32
; divergence: inherent: qemu-i386 7.2 does not apply READ_IMPLIES_EXEC to the program's data, so a call into .data gets SIGSEGV under qemu where the kernel runs it
; Without PT_GNU_STACK, Linux gives a 32-bit program the READ_IMPLIES_EXEC personality:
; every readable mapping is executable, .data included, and a call into it runs (returns 7).
%include "probe32.inc"
global _start
_start:
        mov     eax, code_in_data
        call    eax
        show_dec "code in .data returned", eax
        exit_with 0

section .data
code_in_data:
        mov     eax, 7
        ret
