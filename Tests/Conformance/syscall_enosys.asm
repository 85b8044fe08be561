; conformance: syscall: an unknown system call number returns -ENOSYS (-38)
; Numbers past the table return -38 in rax and the program goes on. Holes in the table are not
; probed: new kernels fill them (6.11's uretprobe, 335, sends SIGILL when called directly).
%include "probe.inc"
global _start
_start:
        mov     eax, 1000
        syscall
        show_dec "syscall 1000", rax
        mov     eax, 511                ; the last number below x32's
        syscall
        show_dec "syscall 511", rax
        exit_with 0
