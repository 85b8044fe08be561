; conformance: i/o: writing to a pipe nobody reads
; With SIGPIPE ignored, write() to a pipe whose read end is closed returns -EPIPE (-32); with the
; default action the same write kills the program with SIGPIPE (status 141).
%include "probe.inc"
global _start
_start:
        sub     rsp, 64
        mov     rdi, rsp                ; int fds[2]
        mov     eax, 22                 ; pipe
        syscall
        mov     edi, [rsp]
        mov     eax, 3                  ; close the read end
        syscall
        mov     qword [rsp + 16], 1     ; sa_handler = SIG_IGN
        mov     qword [rsp + 24], 0     ; sa_flags
        mov     qword [rsp + 40], 0     ; sa_mask
        mov     edi, 13                 ; SIGPIPE
        lea     rsi, [rsp + 16]
        xor     edx, edx
        mov     r10d, 8
        mov     eax, 13                 ; rt_sigaction
        syscall
        call    write_pipe
        show_dec "write with SIGPIPE ignored", rax
        mov     qword [rsp + 16], 0     ; SIG_DFL
        mov     edi, 13
        lea     rsi, [rsp + 16]
        xor     edx, edx
        mov     r10d, 8
        mov     eax, 13
        syscall
        call    write_pipe
        say     {"still running", 10}
        exit_with 0

write_pipe:                             ; rax = write(fds[1], "x", 1)
        mov     edi, [rsp + 8 + 4]
        lea     rsi, [rel write_pipe]
        mov     edx, 1
        mov     eax, 1
        syscall
        ret
