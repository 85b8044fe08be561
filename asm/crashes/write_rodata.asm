; Capitalises a string kept in .rodata: the section is read-only, so the write faults.
; The correct twin, ../checks/write_data.asm, keeps the string in .data.
section .rodata
message: db "hello", 10

section .text
global _start
_start:
        mov     byte [message], 'H'     ; crash: .rodata cannot be written
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel message]
        mov     edx, 6
        syscall
        mov     eax, 60
        xor     edi, edi
        syscall
