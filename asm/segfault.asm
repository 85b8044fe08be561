; Writes through a null pointer: dies by SIGSEGV, natively and under qemu alike. The expected
; status is `signal SIGSEGV`; qemu's own "uncaught target signal" line is not program output.
section .text
global _start
_start:
        xor     eax, eax
        mov     qword [rax], 1
