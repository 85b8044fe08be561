; The correct twin of crashes/write_rodata.asm: a string the program changes lives in .data.
section .data
message: db "hello", 10

section .text
global _start
_start:
        mov     byte [message], 'H'     ; .data is writable
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel message]
        mov     edx, 6
        syscall
        mov     eax, 60
        xor     edi, edi
        syscall
