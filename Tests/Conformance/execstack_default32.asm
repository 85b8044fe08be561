; conformance: executable stack: a 32-bit program without a .note.GNU-stack section runs code from its stack (elf32)
; asmrun: format elf32
; Without PT_GNU_STACK (nasm writes no .note.GNU-stack, so ld writes none) Linux runs a 32-bit
; program with READ_IMPLIES_EXEC: its stack is executable, and code stored there runs.
%include "probe32.inc"
%include "execstack.inc"
global _start
_start:
        run_stack_code
