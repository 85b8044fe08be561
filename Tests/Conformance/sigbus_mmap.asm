; conformance: faults: SIGBUS's si_code and si_addr for a mapped page past the end of its file
; Mapping two pages of a one-page file and touching the second gives SIGBUS with si_code
; BUS_ADRERR (2) and si_addr = the address touched. The file is a memfd (memfd_create).
%include "probe.inc"
global _start
_start:
        on_signal 7, handler            ; SIGBUS
        sub     rsp, 16
        mov     dword [rsp], "prob"
        mov     byte [rsp + 4], 0
        mov     rdi, rsp
        xor     esi, esi
        mov     eax, 319                ; memfd_create("prob", 0)
        syscall
        mov     r12, rax
        mov     rdi, rax
        mov     esi, 4096
        mov     eax, 77                 ; ftruncate(fd, 4096)
        syscall
        xor     edi, edi
        mov     esi, 8192
        mov     edx, 3                  ; PROT_READ | PROT_WRITE
        mov     r10d, 1                 ; MAP_SHARED
        mov     r8, r12
        xor     r9d, r9d
        mov     eax, 9                  ; mmap(NULL, 8192, ..., fd, 0)
        syscall
        mov     r13, rax
        mov     byte [r13], 1           ; the first page is the file's
        say     {"first page written", 10}
        lea     r14, [r13 + 4096 + 16]
        mov     byte [r14], 1           ; past the end of the file
        exit_with 1

handler:
        mov     rbx, rsi                ; siginfo
        mov     eax, [rbx + 8]
        show_dec "si_code", rax
        cmp     [rbx + 16], r14
        show_if "si_addr is the address", e
        exit_with 0
