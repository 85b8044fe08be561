; asmrun: timeout 3
; Forks 12 times in every process (up to 4096 processes), then every process sleeps 20 s.
; The process limit (a pids cgroup, or RLIMIT_NPROC) stops it; the timeout ends it all.
%include "sys.inc"
section .text
global _start
_start:
        mov     r12d, 12
.fork:  mov     eax, SYS_fork
        syscall
        dec     r12d
        jnz     .fork
        sleep_seconds 20
        exit_with 0
