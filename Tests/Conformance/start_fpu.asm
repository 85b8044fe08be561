; conformance: start: x87 and SSE control state at _start
; The kernel gives a new program the FNINIT state: x87 control word 0x37f (all exceptions
; masked, 64-bit precision, round to nearest), an empty register stack (tag word 0xffff in
; FNSTENV's form), status word 0; and MXCSR 0x1f80 (SSE exceptions masked, round to nearest).
%include "probe.inc"
global _start
_start:
        fnstcw  [rel control]
        fnstsw  [rel status]
        stmxcsr [rel mxcsr]
        fnstenv [rel environment]
        movzx   eax, word [rel control]
        show_hex "x87 control word", rax
        movzx   eax, word [rel status]
        show_hex "x87 status word", rax
        movzx   eax, word [rel environment + 8]
        show_hex "x87 tag word", rax
        mov     eax, [rel mxcsr]
        show_hex "mxcsr", rax
        exit_with 0

section .bss
control:     resw 1
status:      resw 1
mxcsr:       resd 1
environment: resb 28
