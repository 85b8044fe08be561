; asmrun: timeout 3
; Starts up to 2000 threads (raw clone, 16 KiB stacks) that each sleep 20 s.
%include "sys.inc"
%define CLONE_THREADS 0x50f00           ; VM|FS|FILES|SIGHAND|THREAD|SYSVSEM
section .text
global _start
_start:
        ; one mapping for all stacks: 2000 * 16 KiB
        mov     eax, SYS_mmap
        xor     edi, edi
        mov     esi, 2000 * 16384
        mov     edx, 3                  ; PROT_READ | PROT_WRITE
        mov     r10d, 0x22              ; MAP_PRIVATE | MAP_ANONYMOUS
        mov     r8, -1
        xor     r9d, r9d
        syscall
        cmp     rax, -4096
        ja      .wait
        mov     rbx, rax
        mov     r12d, 2000
.spawn: add     rbx, 16384              ; top of the next stack
        mov     eax, SYS_clone
        mov     edi, CLONE_THREADS
        mov     rsi, rbx
        xor     edx, edx
        xor     r10d, r10d
        xor     r8d, r8d
        syscall
        test    rax, rax
        jz      .thread
        dec     r12d
        jnz     .spawn
.wait:  sleep_seconds 20
        exit_with 0
.thread:
        sleep_seconds 20
        mov     eax, SYS_exit
        xor     edi, edi
        syscall
