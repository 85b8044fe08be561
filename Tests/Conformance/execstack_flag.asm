; conformance: executable stack: a 64-bit program linked with `-z execstack` runs code from its stack
; asmrun: link-flags -z execstack
; `ld -z execstack` writes PT_GNU_STACK with PF_X and the kernel maps the stack executable:
; code stored on the stack runs (it returns 42). Without the flag see execstack_default.asm.
%include "probe.inc"
%include "execstack.inc"
global _start
_start:
        run_stack_code_or_report_fault
