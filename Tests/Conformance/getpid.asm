; conformance: other: getpid, gettid and getppid agree with each other
; In a single-threaded program gettid = getpid, two getpid calls agree, getppid is another
; process. Process ids themselves vary from run to run and are not printed.
%include "probe.inc"
global _start
_start:
        mov     eax, 39                 ; getpid
        syscall
        mov     rbx, rax
        mov     eax, 186                ; gettid
        syscall
        cmp     rax, rbx
        show_if "gettid = getpid", e
        mov     eax, 39
        syscall
        cmp     rax, rbx
        show_if "getpid twice the same", e
        mov     eax, 110                ; getppid
        syscall
        cmp     rax, rbx
        show_if "getppid differs", ne
        test    rax, rax
        show_if "getppid positive", g
        exit_with 0
