; Reports a problem on standard error and exits with status 3: both are expected.
section .data
out:    db "checking input...", 10
outlen  equ $ - out
err:    db "error: no input file given", 10
errlen  equ $ - err

section .text
global _start
_start:
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel out]
        mov     edx, outlen
        syscall
        mov     eax, 1
        mov     edi, 2                  ; standard error
        lea     rsi, [rel err]
        mov     edx, errlen
        syscall
        mov     eax, 60
        mov     edi, 3
        syscall
