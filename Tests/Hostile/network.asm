; Tries to reach 127.0.0.1 port 9 over TCP and prints the outcome: "unreachable" inside an
; isolated network namespace (no interface is up), "refused" or "connected" otherwise.
%include "sys.inc"
section .data
addr:   dw 2                            ; AF_INET
        db 0, 9                         ; port 9, big-endian
        db 127, 0, 0, 1
        dq 0
unreach: db "unreachable", 10
refused: db "refused", 10
other:   db "connected or other", 10
section .text
global _start
_start:
        mov     eax, SYS_socket
        mov     edi, 2
        mov     esi, 1
        xor     edx, edx
        syscall
        mov     edi, eax
        mov     eax, SYS_connect
        lea     rsi, [rel addr]
        mov     edx, 16
        syscall
        cmp     rax, -101               ; ENETUNREACH
        je      .unreach
        cmp     rax, -111               ; ECONNREFUSED
        je      .refused
        write_str 1, other, 19
        exit_with 0
.unreach:
        write_str 1, unreach, 12
        exit_with 0
.refused:
        write_str 1, refused, 8
        exit_with 0
