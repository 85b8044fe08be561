; Closes its standard output, writes to it anyway (EBADF), and says so on standard error.
%include "sys.inc"
section .data
lost:   db "lost", 10
msg:    db "stdout is closed", 10
section .text
global _start
_start:
        mov     eax, SYS_close
        mov     edi, 1
        syscall
        write_str 1, lost, 5
        write_str 2, msg, 17
        exit_with 0
