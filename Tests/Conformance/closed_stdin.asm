; conformance: i/o: reading standard input after closing it
; close(0) returns 0; read(0, ...) then returns -EBADF (-9), as does a second close(0). Before
; the close, an empty stdin reads as end of file (0).
%include "probe.inc"
global _start
_start:
        sub     rsp, 16
        xor     edi, edi
        mov     rsi, rsp
        mov     edx, 16
        xor     eax, eax
        syscall
        show_dec "read(0) of an empty stdin", rax
        xor     edi, edi
        mov     eax, 3                  ; close(0)
        syscall
        show_dec "close(0)", rax
        xor     edi, edi
        mov     rsi, rsp
        mov     edx, 16
        xor     eax, eax
        syscall
        show_dec "read(0) after close", rax
        xor     edi, edi
        mov     eax, 3
        syscall
        show_dec "close(0) again", rax
        exit_with 0
