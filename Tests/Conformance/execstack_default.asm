; conformance: executable stack: a 64-bit program without a .note.GNU-stack section runs no code from its stack
; nasm writes no .note.GNU-stack section, and `ld` then writes no PT_GNU_STACK header; for a
; 64-bit program Linux (since 5.8) keeps the stack non-executable all the same. Calling code
; stored on the stack gives SIGSEGV (SEGV_ACCERR, 2), which the handler reports.
%include "probe.inc"
%include "execstack.inc"
global _start
_start:
        run_stack_code_or_report_fault
