; Calls a function from an included file with a null pointer: the report names the line in
; store.inc, where the fault is, and the call stack leads back here.
%include "store.inc"

section .bss
cell:   resq 1

section .text
global _start
_start:
        lea     rbx, [rel cell]
        store   rbx, 1                  ; the macro stores through a good pointer
        xor     edi, edi                ; a null pointer
        mov     esi, 42
        call    write_through
        mov     eax, 60
        xor     edi, edi
        syscall
