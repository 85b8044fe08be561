; asmrun: limit processes 4
; Starts 20 children (each sleeps 3 s) against a limit of 4 processes. Contained:
; "forks: limited" (as root the case's pids cgroup holds pids.max, which RLIMIT_NPROC does not).
%include "attack.inc"
section .data
text limited, "forks: limited"
text unlimited, "forks: unlimited"
section .text
global _start
_start:
        mov     r12d, 20
        xor     r13d, r13d
.fork:  mov     eax, SYS_fork
        syscall
        test    rax, rax
        jz      .child
        js      .next
        inc     r13d
.next:  dec     r12d
        jnz     .fork
        cmp     r13d, 20
        je      .unlimited
        say     limited
        exit_with 0
.unlimited:
        say     unlimited
        exit_with 0
.child: sleep_seconds 3
        exit_with 0
