; conformance: i/o: a read returns what is there, fewer bytes than asked; zero-length reads and writes
; read() of a pipe holding 5 bytes returns 5 when 100 were asked; after the writer closed it,
; read returns 0 (end of file). write() and read() of 0 bytes return 0. A program that assumes
; full reads is wrong on every system; this checks that nothing fills the gap.
%include "probe.inc"
global _start
_start:
        sub     rsp, 128
        lea     rdi, [rsp]              ; int fds[2] at rsp
        mov     eax, 22                 ; pipe
        syscall
        mov     edi, [rsp + 4]          ; the write end
        lea     rsi, [rel five]
        mov     edx, 5
        mov     eax, 1
        syscall
        mov     edi, [rsp]              ; the read end
        lea     rsi, [rsp + 16]
        mov     edx, 100
        xor     eax, eax
        syscall
        show_dec "read(pipe holding 5, 100)", rax
        mov     edi, [rsp]
        lea     rsi, [rsp + 16]
        xor     edx, edx
        xor     eax, eax
        syscall
        show_dec "read(pipe, 0)", rax
        mov     edi, [rsp + 4]
        mov     eax, 3                  ; close the write end
        syscall
        mov     edi, [rsp]
        lea     rsi, [rsp + 16]
        mov     edx, 100
        xor     eax, eax
        syscall
        show_dec "read(pipe without writer, 100)", rax
        mov     edi, 1
        lea     rsi, [rel five]
        xor     edx, edx
        mov     eax, 1
        syscall
        show_dec "write(stdout, 0)", rax
        exit_with 0

section .rodata
five:   db "12345"
