; conformance: syscall: registers other than rax, rcx and r11 survive `syscall`
; The kernel saves and restores every general register but rax (the result), rcx and r11;
; the probe fills them with distinct values, calls getpid and prints those that changed.
%include "probe.inc"
global _start
_start:
        mov     rbx, 0x1b
        mov     rdx, 0x1d
        mov     rsi, 0x51
        mov     rdi, 0xd1
        mov     rbp, 0xb9
        mov     r8, 0x8
        mov     r9, 0x9
        mov     r10, 0xa
        mov     r12, 0xc
        mov     r13, 0xd
        mov     r14, 0xe
        mov     r15, 0xf
        mov     eax, 39                 ; getpid
        syscall
        ; one bit per register that still holds its value: rbx rdx rsi rdi rbp r8 r9 r10 r12-r15
        xor     eax, eax
%macro kept 3
        cmp     %1, %2
        jne     %%changed
        or      eax, 1 << %3
%%changed:
%endmacro
        kept    rbx, 0x1b, 0
        kept    rdx, 0x1d, 1
        kept    rsi, 0x51, 2
        kept    rdi, 0xd1, 3
        kept    rbp, 0xb9, 4
        kept    r8, 0x8, 5
        kept    r9, 0x9, 6
        kept    r10, 0xa, 7
        kept    r12, 0xc, 8
        kept    r13, 0xd, 9
        kept    r14, 0xe, 10
        kept    r15, 0xf, 11
        cmp     eax, 0xfff
        show_if "rbx rdx rsi rdi rbp r8-r10 r12-r15 kept", e
        exit_with 0
