; Leaves a setsid daemon with an empty environment: nothing marks it as the case's, so only a
; boundary that holds every process of the case (a PID namespace, a cgroup) can end it.
; Contained: the daemon ends with the case ("asmrun ended 1 process the program left running").
%include "attack.inc"
section .text
global _start
_start:
        xor     edi, edi
        call    spawn_daemon
        exit_with 0
