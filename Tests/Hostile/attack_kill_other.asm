; SIGKILLs the process whose pid is argv[1] (the test starts it, as the same user). Contained:
; "kill: refused" (no such process in the case's PID namespace).
%include "attack.inc"
section .data
text sent, "kill: sent"
text refused, "kill: refused"
section .text
global _start
_start:
        argv_number_or_exit 1
        mov     eax, SYS_kill
        mov     esi, 9
        syscall
        test    rax, rax
        jnz     .refused
        say     sent
        exit_with 0
.refused:
        say     refused
        exit_with 0
