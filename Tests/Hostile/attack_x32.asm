; A child writes through the x32 ABI (system call numbers with bit 30 set), for which the filter
; has no rules of its own. Contained: the write never happens. Natively the filter answers
; ENOSYS, as a kernel with x32 off does ("x32: refused"); under qemu the emulator answers ENOSYS
; itself. A kill ("x32: killed", SIGSYS) would be contained too, but is not what hardware does.
%include "attack.inc"
section .data
escaped: db "x32: written by the child", 10
escaped_len equ $ - escaped
text killed, "x32: killed"
text refused, "x32: refused"
text written, "x32: written"
section .bss
status: resd 1
section .text
global _start
_start:
        fork_or_parent .parent
        mov     eax, 0x40000001         ; write, x32
        mov     edi, 1
        lea     rsi, [rel escaped]
        mov     edx, escaped_len
        syscall
        cmp     rax, escaped_len
        je      .wrote
        exit_with 4
.wrote: exit_with 3
.parent:
        mov     edi, eax
        mov     eax, SYS_wait4
        lea     rsi, [rel status]
        xor     edx, edx
        xor     r10d, r10d
        syscall
        mov     eax, [rel status]
        and     eax, 0x7f
        cmp     eax, 31                 ; SIGSYS
        je      .killed
        mov     eax, [rel status]
        shr     eax, 8
        and     eax, 0xff
        cmp     eax, 4
        je      .refused
        say     written
        exit_with 0
.killed:
        say     killed
        exit_with 0
.refused:
        say     refused
        exit_with 0
