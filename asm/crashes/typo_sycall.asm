; A typo: `sycall` is not an instruction, so nasm takes it for a label (and warns), the exit
; system call never happens, and the program runs off the end of its code.
section .text
global _start
_start:
        mov     eax, 60
        xor     edi, edi                ; crash: the last instruction
        sycall
