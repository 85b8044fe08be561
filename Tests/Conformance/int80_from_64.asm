; conformance: int 0x80: the 32-bit system call gate called from 64-bit code
; divergence: warned: qemu-x86_64 7.2 has no 32-bit system call ABI for 64-bit programs: it runs `int 0x80` as a 64-bit system call of the same number with the 32-bit argument registers (eax = 20, getpid in the 32-bit table, is writev there; eax = 60 exits with ebx); asmrun warns about `int 0x80` in 64-bit code at every build
; An x86_64 kernel runs `int 0x80` from a 64-bit program as a 32-bit system call (eax = 20 is
; getpid there, with 32-bit arguments) and, since Linux 4.17, keeps r8-r15. The probe compares
; the result with the 64-bit getpid.
%include "probe.inc"
global _start
_start:
        mov     eax, 39                 ; getpid, the 64-bit way
        syscall
        mov     rbx, rax
        mov     r8, 8
        mov     r9, 9
        mov     r10, 10
        mov     r11, 11
        mov     r12, 12
        mov     r15, 15
        mov     eax, 20                 ; getpid in the 32-bit table
        int     0x80
        mov     r13, r8                 ; 8 | 9 | 10 | 11 = 11 when all are kept
        or      r13, r9
        or      r13, r10
        or      r13, r11
        cmp     rax, rbx
        show_if "int 0x80 getpid is getpid", e
        cmp     r13, 11
        show_if "r8-r11 kept", e
        cmp     r12, 12
        jne     .r15
        cmp     r15, 15
.r15:   show_if "r12 and r15 kept", e
        exit_with 0
