; Sends itself SIGUSR1, whose default action ends it: the status is `signal SIGUSR1`.
%include "sys.inc"
section .text
global _start
_start:
        mov     eax, SYS_getpid
        syscall
        mov     edi, eax
        mov     eax, SYS_kill
        mov     esi, 10                 ; SIGUSR1
        syscall
        exit_with 0
