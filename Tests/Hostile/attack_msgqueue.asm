; Removes the host's SysV message queue with key 0x41534d52 ("ASMR", made by the test before
; the run) when it can see it. Contained: "queue: untouched" (the case has its own IPC namespace).
%include "attack.inc"
section .data
text removed, "queue: removed"
text untouched, "queue: untouched"
section .text
global _start
_start:
        mov     eax, SYS_msgget
        mov     edi, 0x41534d52
        xor     esi, esi
        syscall
        test    rax, rax
        js      .untouched
        mov     edi, eax
        mov     eax, SYS_msgctl
        xor     esi, esi                ; IPC_RMID
        xor     edx, edx
        syscall
        test    rax, rax
        jnz     .untouched
        say     removed
        exit_with 0
.untouched:
        say     untouched
        exit_with 0
