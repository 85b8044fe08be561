; PTRACE_ATTACH to its parent (asmrun itself, without a PID namespace of the case); detaches
; again at once when that worked. Contained: "ptrace: refused". (qemu-user implements no ptrace
; for its guest: under qemu it is refused either way.)
%include "attack.inc"
section .data
text attached, "ptrace: attached"
text refused, "ptrace: refused"
section .text
global _start
_start:
        mov     eax, SYS_getppid
        syscall
        mov     r12, rax
        mov     eax, SYS_ptrace
        mov     edi, 16                 ; PTRACE_ATTACH
        mov     rsi, r12
        xor     edx, edx
        xor     r10d, r10d
        syscall
        test    rax, rax
        jnz     .refused
        mov     eax, SYS_wait4          ; wait4(ppid, NULL, __WALL, NULL): the attach stop
        mov     rdi, r12
        xor     esi, esi
        mov     edx, 0x40000000
        xor     r10d, r10d
        syscall
        mov     eax, SYS_ptrace
        mov     edi, 17                 ; PTRACE_DETACH
        mov     rsi, r12
        xor     edx, edx
        xor     r10d, r10d
        syscall
        say     attached
        exit_with 0
.refused:
        say     refused
        exit_with 0
