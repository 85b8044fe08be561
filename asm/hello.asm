; The classic: write "Hello, World!" with syscall 1 (write), exit 0 with syscall 60 (exit).
section .data
msg:    db "Hello, World!", 10
len:    equ $ - msg

section .text
global _start
_start:
        mov     eax, 1          ; write(
        mov     edi, 1          ;   stdout,
        lea     rsi, [rel msg]  ;   msg,
        mov     edx, len        ;   len)
        syscall
        mov     eax, 60         ; exit(
        xor     edi, edi        ;   0)
        syscall
