; Writes to descriptors 3 to 9, which asmrun never leaves open: prints "-" for each failure.
%include "sys.inc"
section .data
byte_:  db "x"
fail:   db "-"
ok:     db "+"
nl:     db 10
section .text
global _start
_start:
        mov     r12d, 3
.next:  mov     eax, SYS_write
        mov     edi, r12d
        lea     rsi, [rel byte_]
        mov     edx, 1
        syscall
        test    rax, rax
        js      .failed
        write_str 1, ok, 1
        jmp     .step
.failed:
        write_str 1, fail, 1
.step:  inc     r12d
        cmp     r12d, 10
        jb      .next
        write_str 1, nl, 1
        exit_with 0
