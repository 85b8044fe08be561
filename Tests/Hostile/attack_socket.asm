; Connects to the Unix socket at argv[1] (the test listens there, in /tmp or /run as a docker or
; database socket would be). Contained: "socket: unreachable".
%include "attack.inc"
section .data
text connected, "socket: connected"
text unreachable, "socket: unreachable"
section .bss
address: resb 110                        ; struct sockaddr_un
section .text
global _start
_start:
        mov     rbx, rsp
        lea     rdi, [rel address]
        mov     word [rdi], 1           ; AF_UNIX
        add     rdi, 2
        argv_or_exit 1
        call    append_string
        mov     eax, SYS_socket
        mov     edi, 1
        mov     esi, 1                  ; SOCK_STREAM
        xor     edx, edx
        syscall
        mov     edi, eax
        mov     eax, SYS_connect
        lea     rsi, [rel address]
        mov     edx, 110
        syscall
        test    rax, rax
        jnz     .unreachable
        say     connected
        exit_with 0
.unreachable:
        say     unreachable
        exit_with 0
