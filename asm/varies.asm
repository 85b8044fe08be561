; Prints its process id and the time, which differ on every run. The expectation matches
; them with `[..]` holes, so the rest of each line is still checked.
%include "lib/io.asm"

section .data
pidlabel:   db "pid: "
timelabel:  db "seconds since 1970: "

section .text
global _start
_start:
        lea     rsi, [rel pidlabel]
        mov     edx, 5
        call    print_str
        mov     eax, 39                 ; getpid()
        syscall
        call    print_uint
        call    print_newline
        lea     rsi, [rel timelabel]
        mov     edx, 20
        call    print_str
        mov     eax, 201                ; time(NULL)
        xor     edi, edi
        syscall
        call    print_uint
        call    print_newline
        xor     edi, edi
        jmp     exit
