; conformance: syscall: a number with x32's bit 30 set returns -ENOSYS (-38)
; `mov al, 60` after rax held a negative result leaves 0xffffffffffffff3c: the kernel takes the
; low 32 bits, whose bit 30 marks an x32 call, and answers -38 where x32 is off (Debian's
; default) or the number is past x32's table, as 0x40001000 is on every kernel.
%include "probe.inc"
global _start
_start:
        mov     rax, -2
        mov     al, 60                  ; exit, but for the high bits
        mov     edi, 3
        syscall
        show_dec "syscall 0xffffff3c", rax
        mov     eax, 0x40001000
        syscall
        show_dec "syscall 0x40001000", rax
        exit_with 0
