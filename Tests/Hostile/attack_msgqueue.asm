; Removes the host's SysV message queue whose key (decimal) is its argument (made by the test
; before the run; each harness uses a key of its own, so two can run at once) when it can see
; it. Contained: "queue: untouched" (the case has its own IPC namespace).
%include "attack.inc"
section .data
text removed, "queue: removed"
text untouched, "queue: untouched"
section .text
global _start
_start:
        argv_number_or_exit 1
        mov     eax, SYS_msgget
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
