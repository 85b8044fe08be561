; One 100,000-character line ending in CRLF, then bytes that are not UTF-8 and no final
; newline: compared exactly, shown escaped, nothing crashes.
%include "sys.inc"
section .data
tail:   db 13, 10, 0xff, 0xfe, 0, "end"
section .bss
line:   resb 100000
section .text
global _start
_start:
        lea     rdi, [rel line]
        mov     ecx, 100000
        mov     al, 'a'
        rep     stosb
        write_str 1, line, 100000
        write_str 1, tail, 8
        exit_with 0
