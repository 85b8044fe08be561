; Replaces itself with /bin/echo: the output is echo's.
%include "sys.inc"
section .data
path:   db "/bin/echo", 0
arg0:   db "echo", 0
arg1:   db "replaced by /bin/echo", 0
argv:   dq 0, 0, 0
section .text
global _start
_start:
        lea     rax, [rel arg0]
        mov     [rel argv], rax
        lea     rax, [rel arg1]
        mov     [rel argv + 8], rax
        mov     eax, SYS_execve
        lea     rdi, [rel path]
        lea     rsi, [rel argv]
        xor     edx, edx
        syscall
        exit_with 99
