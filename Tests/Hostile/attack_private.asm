; Reads a file only its owner may read (mode 0600, owned by root: /etc/shadow, /root/.ssh,
; /autograder/source), named by argv[1]: a case of root's without capabilities is still uid 0,
; the file's owner. Contained: "private: refused" (cases run as an unprivileged user).
%include "attack.inc"
section .bss
buffer: resb 64
section .data
text read, "private: read"
text refused, "private: refused"
section .text
global _start
_start:
        mov     rbx, rsp
        argv_or_exit 1
        mov     eax, SYS_open
        mov     rdi, rsi
        xor     esi, esi
        syscall
        test    rax, rax
        js      .refused
        mov     edi, eax
        mov     eax, SYS_read
        lea     rsi, [rel buffer]
        mov     edx, 64
        syscall
        test    rax, rax
        js      .refused
        say     read
        exit_with 0
.refused:
        say     refused
        exit_with 0
