; conformance: faults: the trap number and page-fault error code in a SIGSEGV handler's ucontext
; divergence: inherent: qemu-user 7.2 leaves trapno at -1 in the signal frame and sets no instruction-fetch bit (4) in the error code; the handler of a program that reads them (a JIT, a garbage collector) sees the difference
; The kernel copies the exception into uc_mcontext: trapno 14 for a page fault and the CPU's
; error code: bit 0 the page was present, bit 1 a write, bit 2 user mode, bit 4 an
; instruction fetch. The handler prints them for each access and resumes after it.
%include "probe.inc"
global _start
_start:
        on_signal 11, handler
%macro access 2                         ; access "name", instruction
        say     %1
        say     ": "
        lea     r15, [rel %%next]
        %2
%%next:
%endmacro
        access  "read 0x1000", {mov al, [0x1000]}
        access  "write .text", {mov byte [rel _start], 0}
        lea     rbx, [rel data]
        access  "execute .data", {call rbx}
        exit_with 0

handler:
        mov     rbp, rdx                ; ucontext
        say     "trapno "
        mov     rax, [rbp + UC_TRAPNO]
        call    put_dec
        say     ", error 0x"
        mov     rax, [rbp + UC_ERR]
        call    put_hex
        call    put_newline
        mov     [rbp + UC_RIP], r15
        ret

section .data
data:   db 0xc3                         ; ret, in a page that is not executable
