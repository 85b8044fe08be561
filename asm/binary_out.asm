; Writes output that is not plain text: UTF-8, a CRLF line ending, control and invalid bytes,
; a tab, and a last line without a newline. Expectations keep it exact, with escapes.
section .data
bytes:  db "caf", 0xc3, 0xa9, 13, 10            ; "café\r\n"
        db 0, 1, 2, 0xff, 27, "[0m", 10         ; control, invalid UTF-8, an escape sequence
        db "tab", 9, "separated", 10
        db "no newline at the end"
len     equ $ - bytes

section .text
global _start
_start:
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel bytes]
        mov     edx, len
        syscall
        mov     eax, 60
        xor     edi, edi
        syscall
