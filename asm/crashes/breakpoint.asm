; A breakpoint left in the code: `int3` stops the program with SIGTRAP when no debugger runs it.
section .text
global _start
_start:
        mov     eax, 60
        int3                            ; crash: a leftover breakpoint
        xor     edi, edi
        syscall
