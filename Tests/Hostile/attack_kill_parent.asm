; kill(getppid(), SIGKILL): without a PID namespace of the case that is asmrun itself, which then
; dies with no report, leaving a neighbour case, scratch folders and a cgroup behind.
; Contained: asmrun reports the case (exit 0) and the run as usual.
%include "attack.inc"
section .text
global _start
_start:
        mov     eax, SYS_getppid
        syscall
        mov     edi, eax
        mov     eax, SYS_kill
        mov     esi, 9
        syscall
        exit_with 0
